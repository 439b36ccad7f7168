-- Delete consumer group ARGV[1] with what it has not acked, its retries, leases, dead letters,
-- pause, counts and heartbeat. With ARGV[2] (server ms), only a subscription's group whose
-- heartbeat in 'subs' is older than that: a reclaim of a group its process left behind. Returns 1
-- if the group existed (and was deleted). Work: XGROUP DESTROY frees the group's pending entries;
-- its keys are unlinked (freed in the background).
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY, K_PAUSED, K_COUNTS = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_MISSED, K_SUBS = KEYS[11], KEYS[12]
check_layout()
if ARGV[2] then
  local beat = redis.call('ZSCORE', K_SUBS, ARGV[1])
  if not beat or tonumber(beat) >= tonumber(ARGV[2]) then
    return 0 -- renewed since: a live subscription's
  end
end
local existed = 0
if redis.call('EXISTS', K_READY) == 1 then
  existed = redis.call('XGROUP', 'DESTROY', K_READY, ARGV[1])
end
redis.call('UNLINK', K_DELAYED, K_INFLIGHT, K_DEAD, K_REASON, K_ATT, K_BODY, K_PAUSED) -- freed off the main thread
redis.call('HDEL', K_COUNTS, 'r:' .. ARGV[1], 'l:' .. ARGV[1])
if existed == 1 and redis.call('HEXISTS', K_COUNTS, 'groups') == 1 then
  redis.call('HINCRBY', K_COUNTS, 'groups', -1)
end
redis.call('HDEL', K_MISSED, ARGV[1])
redis.call('ZREM', K_SUBS, ARGV[1])
return existed
