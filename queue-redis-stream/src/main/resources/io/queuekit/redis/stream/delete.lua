-- One step of deleting consumer group ARGV[1] with what it has not acked, its retries, leases,
-- dead letters, pause, counts and heartbeat. ARGV[3] says which step:
-- 'whole' (an unsharded topic, and a reclaim): a group with more than ARGV[2] pending entries is
--   marked as being deleted ('d:<group>' in 'counts': claims and create.lua refuse it from then
--   on) and has ARGV[2] of them acked (their leases and retries dropped) a step; the step that
--   finds at most ARGV[2] left destroys the group, unlinks its keys and removes the mark.
-- 'mark', 'keep', 'unmark' (a sharded topic, whose deleteGroup runs three phases): phase 1 marks
--   the group on every shard in shard order 0..n-1 ('mark', whether or not the group is there),
--   phase 2 runs 'keep' steps on every shard (as 'whole', but the mark stays), phase 3 removes the
--   marks in reverse order n-1..0 ('unmark').
-- Invariant (one deletion; group(name) creates shard by shard in order 0..n-1 with create.lua, then
-- runs create.lua on shard 0 again): a create that comes before the mark on its shard is destroyed
-- by phase 2; a create that meets a mark refuses, and every shard the group() created on before
-- it was visited before its mark, so phase 2 destroys those too; a visit after the unmark of
-- shard i comes after every later shard's unmark (reverse order), so that group() finds no mark
-- and no group of that deletion left. A group() whose first visits came before the marks and its
-- last after the unmarks finds shard 0's group gone on its second visit there (the creation says
-- it created it) and goes round again. So the group is left on every shard, or on none.
-- A deletion that stopped midway leaves the group marked, holding fewer pending entries; the next
-- deletion finishes it. With ARGV[4] (server ms), a 'whole' step does nothing unless the group is
-- a subscription's whose heartbeat in 'subs' is older than that, and 'resumed' in 'counts'
-- (beat.lua: when passes resumed after an outage) too: a reclaim of a group its process left
-- behind (a renewed beat stops it, as done); only the subscription itself creates its group.
-- Returns {existed 0/1, done 0/1}: whether the group existed, and whether it is gone now (or the
-- reclaim stopped; 'mark' and 'unmark' are done at once).
-- Work: XPENDING, XACK and ZREM of at most ARGV[2] entries, or XGROUP DESTROY of a group holding
-- at most ARGV[2]; the keys are unlinked (freed in the background); 'mark' and 'unmark': one HSET
-- or HDEL.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY, K_PAUSED, K_COUNTS = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_MISSED, K_SUBS = KEYS[11], KEYS[12]
check_layout()
local group, step, mode = ARGV[1], tonumber(ARGV[2]), ARGV[3]
if mode == 'mark' then
  redis.call('HSET', K_COUNTS, 'd:' .. group, 1)
  return {0, 1}
elseif mode == 'unmark' then
  redis.call('HDEL', K_COUNTS, 'd:' .. group)
  return {0, 1}
elseif mode ~= 'whole' and mode ~= 'keep' then
  return error('queuekit: delete.lua: unknown step ' .. tostring(mode))
end
if ARGV[4] then
  local beat = redis.call('ZSCORE', K_SUBS, group)
  if not beat or tonumber(beat) >= tonumber(ARGV[4]) then
    return {0, 1} -- renewed since: a live subscription's
  end
  if tonumber(redis.call('HGET', K_COUNTS, 'resumed') or 0) >= tonumber(ARGV[4]) then
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
redis.call('HDEL', K_COUNTS, 'r:' .. group, 'l:' .. group)
if mode == 'whole' then
  redis.call('HDEL', K_COUNTS, 'd:' .. group)
end
redis.call('HDEL', K_MISSED, group)
redis.call('ZREM', K_SUBS, group)
return {summary and 1 or 0, 1}
