-- Make the lease of hand-out (ARGV[3] stream id, ARGV[4] delivery count) of consumer ARGV[2] in
-- group ARGV[1] end ARGV[5] ms from now. Returns 1, or 0 if the hand-out no longer holds it.
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
local now = now_ms()
if not owns(ARGV[1], ARGV[2], ARGV[3], ARGV[4], now) then
  return 0
end
redis.call('ZADD', K_INFLIGHT, now + tonumber(ARGV[5]), ARGV[3])
return 1
