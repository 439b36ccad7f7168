-- Storage of the delay queue: every waiting id, due or not, in the 'ready' ZSET scored by
-- due time. Score = (due ms - 2025-01-01) * 4096 + (send sequence mod 4096), so ids due in the
-- same millisecond keep send order, and scores stay exact doubles (below 2^53) until 2094.
-- A message becomes ready by time passing alone: no mover is needed. 'signal' wakes one blocked
-- consumer when a message that is due, or due before all others, arrives.

local EPOCH = 1735689600000
local TIE = 4096

local function score(due)
  return (due - EPOCH) * TIE + (redis.call('INCR', K_SEQ) % TIE)
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

-- more due messages than this claim took: wake another consumer to share them
after_claim = function(now)
  if redis.call('ZCOUNT', K_READY, '-inf', max_score(now)) > 0 then
    wake()
  end
end
