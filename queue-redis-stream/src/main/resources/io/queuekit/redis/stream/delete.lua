-- One step of deleting consumer group ARGV[1] with what it has not acked, its retries, leases,
-- dead letters, pause, counts and heartbeat. A group with more than ARGV[2] pending entries is
-- marked as being deleted ('d:<group>' in 'counts': claims refuse it from then on) and has ARGV[2]
-- of them acked (their leases and retries dropped) a step; the step that finds at most ARGV[2]
-- left destroys the group and unlinks its keys. The caller repeats steps until one says it is
-- done; a deletion that stopped midway leaves the group marked, holding fewer pending entries, and
-- the next deletion finishes it. With ARGV[3] (server ms), a step does nothing unless the group is
-- a subscription's whose heartbeat in 'subs' is older than that, and 'resumed' in 'counts' (beat.lua)
-- too: a reclaim of a group its process left behind (a renewed beat stops it, as done).
-- Returns {existed 0/1, done 0/1}: whether the group existed, and whether it is gone now (or the
-- reclaim stopped).
-- Work: XPENDING, XACK and ZREM of at most ARGV[2] entries, or XGROUP DESTROY of a group holding
-- at most ARGV[2]; the keys are unlinked (freed in the background).
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY, K_PAUSED, K_COUNTS = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_MISSED, K_SUBS = KEYS[11], KEYS[12]
check_layout()
local group, step = ARGV[1], tonumber(ARGV[2])
if ARGV[3] then
  local beat = redis.call('ZSCORE', K_SUBS, group)
  if not beat or tonumber(beat) >= tonumber(ARGV[3]) then
    return {0, 1} -- renewed since: a live subscription's
  end
  if tonumber(redis.call('HGET', K_COUNTS, 'resumed') or 0) >= tonumber(ARGV[3]) then
    return {0, 1} -- beats resumed after an outage since (beat.lua): its process gets a full expiry
  end
end
local summary = nil
if redis.call('EXISTS', K_READY) == 1 then
  summary = redis.pcall('XPENDING', K_READY, group)
  if type(summary) == 'table' and summary.err then
    if not string.find(summary.err, 'NOGROUP', 1, true) then
      return error(summary.err)
    end
    summary = nil -- no such group
  end
end
if summary and summary[1] > 0 then
  local ids = {}
  for _, p in ipairs(redis.call('XPENDING', K_READY, group, '-', '+', step)) do
    ids[#ids + 1] = p[1]
  end
  if summary[1] > #ids then
    redis.call('HSET', K_COUNTS, 'd:' .. group, 1)
    redis.call('XACK', K_READY, group, unpack(ids))
    redis.call('ZREM', K_INFLIGHT, unpack(ids))
    redis.call('ZREM', K_DELAYED, unpack(ids))
    return {1, 0}
  end
end
if summary then
  redis.call('XGROUP', 'DESTROY', K_READY, group)
  if redis.call('HEXISTS', K_COUNTS, 'groups') == 1 then
    redis.call('HINCRBY', K_COUNTS, 'groups', -1)
  end
end
redis.call('UNLINK', K_DELAYED, K_INFLIGHT, K_DEAD, K_REASON, K_ATT, K_BODY, K_PAUSED) -- freed off the main thread
redis.call('HDEL', K_COUNTS, 'r:' .. group, 'd:' .. group, 'l:' .. group)
redis.call('HDEL', K_MISSED, group)
redis.call('ZREM', K_SUBS, group)
return {summary and 1 or 0, 1}
