-- Storage of the delay queue: every waiting id, due or not, in the 'ready' ZSET scored by
-- due time with ordered_score (common.lua), so ids due in the same millisecond keep send order
-- (up to 4096 of them; beyond, equal scores fall back to id order).
-- A message becomes ready by time passing alone: no mover is needed. 'signal' wakes one blocked
-- consumer when a message that is due, or due before all others, arrives, and after a claim
-- took ids while others are due soon, so that an idle consumer takes over watching the next due
-- time while the claiming one is busy.

LAYOUT = 'zset'

check_types = function()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'zset')
  expect_absent(K_CLAIMING, redis.call('EXISTS', K_CLAIMING))
  expect_absent(K_DELAYED, redis.call('EXISTS', K_DELAYED))
end

local function max_score(now)
  return (now - EPOCH) * TIE + (TIE - 1)
end

local function wake()
  redis.call('LPUSH', K_SIGNAL, '1')
  redis.call('LTRIM', K_SIGNAL, 0, 0)
end

push_delayed = function(id, due, now)
  mark_layout()
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  local hi, lo = ms_range(due)
  local s = ordered_score(due, redis.call('ZREVRANGEBYSCORE', K_READY, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1))
  redis.call('ZADD', K_READY, s, id)
  if due <= now or not first[2] or s < tonumber(first[2]) then
    wake()
  end
end

push_ready = function(id, now)
  push_delayed(id, now, now)
end

pop_ready = function(n, now)
  local ids = redis.call('ZRANGEBYSCORE', K_READY, '-inf', max_score(now), 'LIMIT', 0, n)
  for _, part in ipairs(slices(ids)) do
    redis.call('ZREM', K_READY, unpack(part))
  end
  return ids
end

remove_waiting = function(id)
  return redis.call('ZREM', K_READY, id) == 1
end

count_ready = function(now)
  return redis.call('ZCOUNT', K_READY, '-inf', max_score(now))
end

count_delayed = function(now)
  return redis.call('ZCOUNT', K_READY, '(' .. int(max_score(now)), '+inf')
end

next_due = function(now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  if first[2] then
    return ms_of(first[2])
  end
  return -1
end

promote = function(now)
end

-- Others still wait: wake another consumer, to share those already due, or to wait for the
-- next due time (which no idle consumer may know of, if it was not the earliest when sent)
-- while this one is busy with what it took. Not for one due further ahead than the longest
-- block timeout a builder accepts: every idle consumer claims again before then anyway.
local MAX_BLOCK_MS = 10000
after_claim = function(now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  if first[2] and ms_of(first[2]) <= now + MAX_BLOCK_MS then
    wake()
  end
end
