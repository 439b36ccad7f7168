-- Extend a delivery's lease to end ARGV[3] ms from now. ARGV[1] id, ARGV[2] fencing token.
-- Returns 1, or 0 if that delivery no longer owns the message. Work: a few commands on one id.
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE = KEYS[6]
check_layout()
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
redis.call('ZADD', K_INFLIGHT, 'XX', now_ms() + tonumber(ARGV[3]), id)
return 1
