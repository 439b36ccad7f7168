-- Delete consumer group ARGV[1] with what it has not acked, its retries, leases, dead letters,
-- pause and counts. Returns 1 if the group existed. Work: XGROUP DESTROY frees the group's pending
-- entries; its keys are unlinked (freed in the background).
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY, K_PAUSED, K_COUNTS = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_MISSED = KEYS[11]
check_layout()
local existed = 0
if redis.call('EXISTS', K_READY) == 1 then
  existed = redis.call('XGROUP', 'DESTROY', K_READY, ARGV[1])
end
redis.call('UNLINK', K_DELAYED, K_INFLIGHT, K_DEAD, K_REASON, K_ATT, K_BODY, K_PAUSED) -- freed off the main thread
redis.call('HDEL', K_COUNTS, 'r:' .. ARGV[1])
redis.call('HDEL', K_MISSED, ARGV[1])
return existed
