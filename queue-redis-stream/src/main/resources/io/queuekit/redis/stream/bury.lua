-- Dead-letter hand-out (ARGV[3] stream id, ARGV[4] delivery count) of consumer ARGV[2] in group
-- ARGV[1]: message id ARGV[5], reason ARGV[6], retention ARGV[7], stored body ARGV[8]
-- ("<enqueued ms>:<payload>"). Acks the entry in the group and keeps the body in the group's dead
-- letters. Returns 1, or 0 if the hand-out no longer holds it. Work: a few commands, and the
-- retention's bounded trim.
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
--- @include "bury"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY = KEYS[6], KEYS[7], KEYS[8]
check_layout()
local group, sid, id = ARGV[1], ARGV[3], ARGV[5]
local now = now_ms()
if not owns(group, ARGV[2], sid, ARGV[4], now) then
  return 0
end
redis.call('XACK', K_READY, group, sid)
redis.call('ZREM', K_INFLIGHT, sid)
redis.call('ZREM', K_DELAYED, sid)
redis.call('HSET', K_BODY, id, ARGV[8])
redis.call('HSET', K_ATT, id, ARGV[4])
bury(id, ARGV[6], now, tonumber(ARGV[7]))
return 1
