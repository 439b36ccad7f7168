-- Shared functions for every queuekit queue script. Scripts are composed of this file, a
-- transport file (list.lua, zset.lua) that defines how ready and delayed messages are stored,
-- and one operation file.
--
-- KEYS (the same for every queue script, all in one hash tag):
--   1 ready     LIST of envelopes (list queue) or ZSET id -> due score (zset queue)
--   2 body      HASH id -> "<enqueued ms>:<payload>"
--   3 att       HASH id -> deliveries so far
--   4 inflight  ZSET id -> lease deadline (ms)
--   5 delayed   ZSET envelope -> due (ms): retries waiting for their delay (list queue)
--   6 dead      ZSET id -> order of death (see ordered_score)
--   7 reason    HASH id -> why it was dead-lettered
--   8 seq       STRING counter for generated ids and fencing tokens
--   9 signal    LIST used to wake blocked consumers (zset queue)
--  10 claiming  LIST of envelopes in flight (list queue)
--  11 lease     HASH id -> fencing token of the hand-out that holds the lease
--  12 layout    STRING 'list' or 'zset': which transport's keys these are

local K_READY, K_BODY, K_ATT, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local K_DELAYED, K_DEAD, K_REASON, K_SEQ = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local K_SIGNAL, K_CLAIMING, K_LEASE, K_LAYOUT = KEYS[9], KEYS[10], KEYS[11], KEYS[12]

-- Defined by the transport file that follows (Redis scripts may not create globals):
--   push_ready(id, now)        make id ready now
--   push_delayed(id, due, now) make id ready at due (ms)
--   pop_ready(n, now)          remove and return up to n ready ids, in delivery order
--   remove_waiting(id)         remove id if ready or delayed; true if it was
--   count_ready(now), count_delayed(now)
--   next_due(now)              earliest due time of a delayed id, or -1
--   promote(now)               make due delayed ids ready
--   after_claim(now)           called once a claim took its ids
--   LAYOUT                     'list' or 'zset'
--   check_types()              fails if a key holds another type than this layout's, or another
--                              layout's key exists (for keys not yet marked with their layout)
local push_ready, push_delayed, pop_ready, remove_waiting
local count_ready, count_delayed, next_due, promote, after_claim
local LAYOUT, check_types

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- integers as exact decimal text (tostring would switch to exponent notation)
local function int(x)
  return string.format('%.0f', x)
end

-- Refuses to run on keys of another layout, before anything is written: a script that failed
-- midway would leave its earlier writes behind (Redis does not roll a script back).
-- expect_type(K_X, redis.call('TYPE', K_X), 'zset'): the key may be missing or of that type.
local function expect_type(key, reply, want)
  local t = reply['ok']
  if t ~= 'none' and t ~= want then
    return error('queuekit: ' .. key .. ' is a ' .. t .. ', not the ' .. want .. ' of a ' .. LAYOUT
        .. ' queue; is this queue of another type?')
  end
end

-- expect_absent(K_X, redis.call('EXISTS', K_X)): a key of another layout must not exist.
local function expect_absent(key, exists)
  if exists == 1 then
    return error('queuekit: ' .. key .. ' exists, which a ' .. LAYOUT .. ' queue does not have; '
        .. 'is this queue of another type?')
  end
end

-- Every operation starts here, before it writes anything: the keys must be this transport's
-- (a queue opened as the wrong type, say by an operator's tool, fails without a trace instead
-- of turning its keys into another layout). Keys marked with this layout need no more checks:
-- every write of the other transport checks the mark first (the list queue's plain LPUSH too,
-- before an object's first send), so one GET is all an operation pays.
local layout_marked = false
local function check_layout()
  local layout = redis.call('GET', K_LAYOUT)
  if layout and layout ~= LAYOUT then
    return error('queuekit: ' .. K_LAYOUT .. ' says these are the keys of a ' .. layout
        .. ' queue, not a ' .. LAYOUT .. ' queue; open it as a ' .. layout .. ' queue')
  end
  layout_marked = layout == LAYOUT
  if not layout_marked then
    check_types()
  end
end

-- Called by the transport file wherever it stores a waiting message: marks the keys with
-- their layout, so that no other transport's script takes them for its own.
local function mark_layout()
  if not layout_marked then
    redis.call('SET', K_LAYOUT, LAYOUT)
    layout_marked = true
  end
end

-- The values of list in slices of at most 1000, for commands that take many values at once:
-- unpack of thousands of values exceeds Lua's stack.
local function slices(list)
  local out = {}
  for i = 1, #list, 1000 do
    out[#out + 1] = {unpack(list, i, math.min(i + 999, #list))}
  end
  return out
end

-- Sorted-set scores that keep insertion order within a millisecond: (ms - 2025-01-01) * 4096
-- + tie, where tie is one more than the highest tie already used for that millisecond (0 for
-- the first), up to 4095; scores stay exact doubles (below 2^53) until 2094. Used as
--   local hi, lo = ms_range(ms)
--   local score = ordered_score(ms, redis.call('ZREVRANGEBYSCORE', K_X, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1))
local EPOCH = 1735689600000
local TIE = 4096

-- the highest and lowest score of a millisecond
local function ms_range(ms)
  local base = (ms - EPOCH) * TIE
  return base + TIE - 1, base
end

-- the next score for ms, given the highest one already used in its range (a WITHSCORES reply)
local function ordered_score(ms, highest)
  local base = (ms - EPOCH) * TIE
  if highest[2] then
    return base + math.min(tonumber(highest[2]) - base + 1, TIE - 1)
  end
  return base
end

-- the millisecond of an ordered score
local function ms_of(score)
  return math.floor(tonumber(score) / TIE) + EPOCH
end

local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local function base36(n)
  local s = ''
  repeat
    local d = n % 36
    s = string.sub(DIGITS, d + 1, d + 1) .. s
    n = (n - d) / 36
  until n == 0
  return s
end

-- A fresh generated id: '@' and a counter. Callers may not choose ids that begin with '@', so
-- only a generated id can be taken already (after the counter was reset).
local function new_id()
  while true do
    local id = '@' .. base36(redis.call('INCR', K_SEQ))
    if redis.call('HEXISTS', K_BODY, id) == 0 then
      return id
    end
  end
end

-- Dead-letter an id that is no longer ready or in flight, then trim to the retention,
-- deleting the oldest dead letters with their bodies.
local function bury(id, reason, now, retention)
  local hi, lo = ms_range(now)
  redis.call('ZADD', K_DEAD, ordered_score(now, redis.call('ZREVRANGEBYSCORE', K_DEAD, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1)), id)
  redis.call('HSET', K_REASON, id, reason)
  local excess = redis.call('ZCARD', K_DEAD) - retention
  if excess > 0 then
    local victims = redis.call('ZRANGE', K_DEAD, 0, excess - 1)
    for _, v in ipairs(victims) do
      redis.call('ZREM', K_DEAD, v)
      redis.call('HDEL', K_BODY, v)
      redis.call('HDEL', K_ATT, v)
      redis.call('HDEL', K_REASON, v)
    end
  end
end

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

-- The earliest time something becomes claimable: a delayed message falls due or a lease
-- expires; -1 if neither.
local function next_event(now)
  local t = next_due(now)
  local lease = redis.call('ZRANGE', K_INFLIGHT, 0, 0, 'WITHSCORES')
  if lease[2] then
    local l = tonumber(lease[2])
    if t < 0 or l < t then
      t = l
    end
  end
  return t
end
