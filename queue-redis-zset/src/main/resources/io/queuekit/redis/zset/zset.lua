-- Storage of the delay queue: every waiting id, due or not, in the 'ready' ZSET scored by
-- due time. Score = (due ms - 2025-01-01) * 4096 + tie, where tie is one more than the highest
-- tie among the ids already waiting for the same millisecond (0 for the first), so ids due in
-- the same millisecond keep send order (up to 4096 of them; beyond, equal scores fall back to
-- id order), and scores stay exact doubles (below 2^53) until 2094.
-- A message becomes ready by time passing alone: no mover is needed. 'signal' wakes one blocked
-- consumer when a message that is due, or due before all others, arrives, and after a claim
-- took ids while others are due soon, so that an idle consumer takes over watching the next due
-- time while the claiming one is busy.

local EPOCH = 1735689600000
local TIE = 4096

-- A global counter mod 4096 would wrap inside a millisecond and break send order there.
local function score(due)
  local base = (due - EPOCH) * TIE
  local last = redis.call('ZREVRANGEBYSCORE', K_READY, base + TIE - 1, base, 'WITHSCORES', 'LIMIT', 0, 1)
  if last[2] then
    return base + math.min(tonumber(last[2]) - base + 1, TIE - 1)
  end
  return base
end

local function due_of(s)
  return math.floor(tonumber(s) / TIE) + EPOCH
end

local function max_score(now)
  return (now - EPOCH) * TIE + (TIE - 1)
end

local function wake()
  redis.call('LPUSH', K_SIGNAL, '1')
  redis.call('LTRIM', K_SIGNAL, 0, 0)
end

push_delayed = function(id, due, now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  local s = score(due)
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
  if #ids > 0 then
    redis.call('ZREM', K_READY, unpack(ids))
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
  return redis.call('ZCOUNT', K_READY, '(' .. string.format('%.0f', max_score(now)), '+inf')
end

next_due = function(now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  if first[2] then
    return due_of(first[2])
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
  if first[2] and due_of(first[2]) <= now + MAX_BLOCK_MS then
    wake()
  end
end
