-- Dead letters over the retention that one script may still drop, oldest first: one for each
-- burial, so that a queue at its retention stays there, and TRIM_STEP more, so that a lowered
-- retention is reached over later burials (TRIM_STEP at a time) instead of in one script that
-- stalls the server for every client.
--- @include "ms_range"
--- @include "ordered_score"
--- @include "slices"
local TRIM_STEP = 200
local trim_budget = TRIM_STEP

-- Dead-letter an id that is no longer ready or in flight, then drop the oldest dead letters over
-- the retention, with their bodies, as far as trim_budget allows.
local function bury(id, reason, now, retention)
  local hi, lo = ms_range(now)
  redis.call('ZADD', K_DEAD, ordered_score(now, redis.call('ZREVRANGEBYSCORE', K_DEAD, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1)), id)
  redis.call('HSET', K_REASON, id, reason)
  trim_budget = trim_budget + 1
  local excess = math.min(redis.call('ZCARD', K_DEAD) - retention, trim_budget)
  if excess > 0 then
    trim_budget = trim_budget - excess
    for _, part in ipairs(slices(redis.call('ZRANGE', K_DEAD, 0, excess - 1))) do
      redis.call('ZREM', K_DEAD, unpack(part))
      redis.call('HDEL', K_BODY, unpack(part))
      redis.call('HDEL', K_ATT, unpack(part))
      redis.call('HDEL', K_REASON, unpack(part))
    end
  end
end
