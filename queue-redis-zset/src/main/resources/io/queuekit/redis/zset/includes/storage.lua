-- Storage of the delay queue: every waiting id, due or not, in the 'ready' ZSET scored by
-- due time with ordered_score (common.lua), so ids due in the same millisecond keep send order
-- (up to 4096 of them; beyond, equal scores fall back to id order). Bodies and attempts by id in
-- 'body' and 'att'; leases by deadline in 'inflight', each with the fencing token of its hand-out
-- in 'lease'.
-- A message becomes ready by time passing alone: no mover is needed. 'signal' wakes one blocked
-- consumer when a message that is due, or due before all others, arrives, and after a claim
-- took ids while others are due soon, so that an idle consumer takes over watching the next due
-- time while the claiming one is busy. The signal says when (ms) something becomes claimable: a
-- consumer woken for a later time waits for it without a claim that would find nothing.

--- @include "common"
LAYOUT = 'zset'

check_types = function()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'zset')
  expect_absent(K_CLAIMING, redis.call('EXISTS', K_CLAIMING))
  expect_absent(K_DELAYED, redis.call('EXISTS', K_DELAYED))
end

local function max_score(now)
  return (now - EPOCH) * TIE + (TIE - 1)
end

-- Wakes one blocked consumer for the time at (ms): at once if that is now or past. A pending
-- signal for an earlier time stands: it wakes a consumer sooner (one that is not a number, as an
-- older version pushed, means now). A later one is overwritten in place: while a signal is
-- pending no consumer is blocked on the list, so there is no one to wake; the list holds one
-- signal at most.
local function wake(at)
  local pending = redis.call('LINDEX', K_SIGNAL, 0)
  if not pending then
    redis.call('LPUSH', K_SIGNAL, int(at))
  elseif (tonumber(pending) or 0) > at then
    redis.call('LSET', K_SIGNAL, 0, int(at))
  end
end

-- The score for an id due at ms, behind those already due in that millisecond, and whether
-- nothing waits at or before ms (the id would be the first to fall due): one lookup gives both.
-- last, the highest score this caller gave in that millisecond, stands in for the lookup.
local function score_at(ms, last)
  if last then
    return ordered_score(ms, {false, last}), false
  end
  local hi, lo = ms_range(ms)
  local before = redis.call('ZREVRANGEBYSCORE', K_READY, hi, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if not before[2] then
    return lo, true
  end
  if tonumber(before[2]) < lo then
    return lo, false
  end
  return ordered_score(ms, before), false
end

-- make id ready at due (ms)
local function push_delayed(id, due, now)
  mark_layout()
  local s, first = score_at(due, nil)
  redis.call('ZADD', K_READY, s, id)
  if due <= now or first then
    wake(due)
  end
end

push_ready = function(id, now)
  push_delayed(id, now, now)
end

-- push_delayed for many: ids[i] due at dues[i] (ms; one at or before now is due now), those due
-- in the same millisecond in the order given; one ZADD per 500 and one wake, with a score lookup
-- per distinct millisecond.
local function push_many(ids, dues, now)
  if #ids == 0 then
    return
  end
  mark_layout()
  local last, scored = {}, {}
  local wake_at
  for i, id in ipairs(ids) do
    local due = math.max(dues[i], now)
    local s, first = score_at(due, last[due])
    last[due] = s
    scored[#scored + 1] = s
    scored[#scored + 1] = id
    if (due <= now or first) and (not wake_at or due < wake_at) then
      wake_at = due
    end
  end
  for _, part in ipairs(slices(scored)) do
    redis.call('ZADD', K_READY, unpack(part))
  end
  if wake_at then
    wake(wake_at)
  end
end

-- Removes and returns up to n due ids, in delivery order, and the due time (ms) of the first
-- message still waiting: -1 if none, nil if not looked up. For a few, one ZRANGE reads both.
local function pop_ready(n, now)
  local max = max_score(now)
  local ids, next = {}, nil
  if n <= 4 then
    local head = redis.call('ZRANGE', K_READY, 0, n, 'WITHSCORES')
    next = -1
    for i = 1, #head, 2 do
      if #ids < n and tonumber(head[i + 1]) <= max then
        ids[#ids + 1] = head[i]
      else
        next = ms_of(head[i + 1])
        break
      end
    end
  else
    ids = redis.call('ZRANGEBYSCORE', K_READY, '-inf', max, 'LIMIT', 0, n)
  end
  for _, part in ipairs(slices(ids)) do
    redis.call('ZREM', K_READY, unpack(part))
  end
  return ids, next
end

-- remove id if it waits (due or not); true if it did
local function remove_waiting(id)
  return redis.call('ZREM', K_READY, id) == 1
end

local function count_ready(now)
  return redis.call('ZCOUNT', K_READY, '-inf', max_score(now))
end

local function count_delayed(now)
  return redis.call('ZCOUNT', K_READY, '(' .. int(max_score(now)), '+inf')
end

next_due = function(now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  if first[2] then
    return ms_of(first[2])
  end
  return -1
end

-- Called once a claim took its ids, with the next event (next_event in common.lua): wakes
-- another consumer for what is left, to share those already due, or to watch the next event while
-- this one is busy with what it took. However far off that event is: no consumer may have heard
-- of it, and the wake-up protocol (docs/wake-up-protocol.md) counts on this wake-up to cover it.
local function after_claim(now, next)
  if next >= 0 then
    wake(next)
  end
end

-- ---- leases

-- Settling calls name the fencing token of the hand-out they came from; a delivery whose lease
-- expired (and whose message may have been handed out again) no longer owns the message, even
-- before a claim has reaped the lease, and no token repeats, so not even a later message stored
-- under the same id can be settled by it.
local function owns(id, token)
  local deadline = redis.call('ZSCORE', K_INFLIGHT, id)
  if not deadline or tonumber(deadline) <= now_ms() then
    return false
  end
  return redis.call('HGET', K_LEASE, id) == token
end

-- Deletes the messages that the deliveries named in ARGV from index first on, pairs of id and
-- fencing token, still own (as owns() decides, all looked up at once). Returns how many.
local function ack_pairs(first, now)
  local ids, tokens = {}, {}
  for i = first, #ARGV, 2 do
    ids[#ids + 1] = ARGV[i]
    tokens[#tokens + 1] = ARGV[i + 1]
  end
  local owned = {}
  for p, part in ipairs(slices(ids)) do
    local deadlines = redis.call('ZMSCORE', K_INFLIGHT, unpack(part))
    local leases = redis.call('HMGET', K_LEASE, unpack(part))
    local offset = (p - 1) * 1000 -- slices holds 1000 values each
    for i, id in ipairs(part) do
      if deadlines[i] and tonumber(deadlines[i]) > now and leases[i] == tokens[offset + i] then
        owned[#owned + 1] = id
      end
    end
  end
  for _, part in ipairs(slices(owned)) do
    redis.call('ZREM', K_INFLIGHT, unpack(part))
    redis.call('HDEL', K_LEASE, unpack(part))
    redis.call('HDEL', K_BODY, unpack(part))
    redis.call('HDEL', K_ATT, unpack(part))
  end
  return #owned
end

-- Ends the lease of an id that was in flight.
local function unlease(id)
  redis.call('ZREM', K_INFLIGHT, id)
  redis.call('HDEL', K_LEASE, id)
end

-- An id whose lease expired: back to ready, or to the dead letters once max attempts were used.
-- Returns 'returned', 'buried', or nil if its body was gone.
local function reap_one(id, now, max_attempts, retention)
  unlease(id)
  if redis.call('HEXISTS', K_BODY, id) == 0 then
    return nil
  end
  local att = tonumber(redis.call('HGET', K_ATT, id) or '0')
  if att >= max_attempts then
    bury(id, 'lease expired on attempt ' .. att .. ' of ' .. max_attempts, now, retention)
    return 'buried'
  end
  push_ready(id, now)
  return 'returned'
end

-- Expired leases, up to limit of them, as reap_one. Returns how many went back and how many
-- were buried.
local function reap(now, max_attempts, retention, limit)
  local expired = redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, limit)
  local returned, buried = 0, 0
  for _, id in ipairs(expired) do
    local what = reap_one(id, now, max_attempts, retention)
    if what == 'returned' then
      returned = returned + 1
    elseif what == 'buried' then
      buried = buried + 1
    end
  end
  return returned, buried
end
