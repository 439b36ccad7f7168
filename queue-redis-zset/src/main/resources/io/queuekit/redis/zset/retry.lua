-- Give a message back to be delivered again after a delay. ARGV[1] id, ARGV[2] fencing token,
-- ARGV[3] delay ms (rounded up by the caller). Returns 1, or 0 if that delivery no longer owns
-- the message. Work: a few commands on one id.
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
--- @include "unlease"
--- @include "push_delayed"
--- @include "push_ready"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_SIGNAL = KEYS[6], KEYS[7]
check_layout()
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
local now = now_ms()
unlease(id)
local delay = tonumber(ARGV[3])
if delay > 0 then
  push_delayed(id, now + delay, now)
else
  push_ready(id, now)
end
return 1
