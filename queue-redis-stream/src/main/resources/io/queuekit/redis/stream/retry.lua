-- Make hand-out (ARGV[3] stream id, ARGV[4] delivery count) of consumer ARGV[2] in group ARGV[1]
-- wait ARGV[5] ms: its lease ends and it waits in 'delayed', still pending in the group.
-- Returns 1, or 0 if the hand-out no longer holds it. Work: a few commands.
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
local now = now_ms()
if not owns(ARGV[1], ARGV[2], ARGV[3], ARGV[4], now) then
  return 0
end
redis.call('ZREM', K_INFLIGHT, ARGV[3])
redis.call('ZADD', K_DELAYED, now + tonumber(ARGV[5]), ARGV[3])
return 1
