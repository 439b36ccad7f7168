-- Shared functions for every queuekit queue script. Scripts are composed of this file, a
-- transport file (list.lua, zset.lua) that defines how ready and delayed messages are stored,
-- and one operation file.
--
-- KEYS (the same for every queue script, all in one hash tag):
--   1 ready     LIST of ids (list queue) or ZSET id -> due score (zset queue)
--   2 body      HASH id -> "<enqueued ms>:<payload>"
--   3 att       HASH id -> deliveries so far
--   4 inflight  ZSET id -> lease deadline (ms)
--   5 delayed   ZSET id -> due (ms): retries waiting for their delay (list queue)
--   6 dead      ZSET id -> dead-lettered at (ms)
--   7 reason    HASH id -> why it was dead-lettered
--   8 seq       STRING counter for generated ids
--   9 signal    LIST used to wake blocked consumers (zset queue)
--  10 claiming  LIST of envelopes in flight (list queue)

local K_READY, K_BODY, K_ATT, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local K_DELAYED, K_DEAD, K_REASON, K_SEQ = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local K_SIGNAL, K_CLAIMING = KEYS[9], KEYS[10]

-- Defined by the transport file that follows (Redis scripts may not create globals):
--   push_ready(id, now)        make id ready now
--   push_delayed(id, due, now) make id ready at due (ms)
--   pop_ready(n, now)          remove and return up to n ready ids, in delivery order
--   remove_waiting(id)         remove id if ready or delayed; true if it was
--   count_ready(now), count_delayed(now)
--   next_due(now)              earliest due time of a delayed id, or -1
--   promote(now)               make due delayed ids ready
--   after_claim(now)           called once a claim took its ids
local push_ready, push_delayed, pop_ready, remove_waiting
local count_ready, count_delayed, next_due, promote, after_claim

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- integers as exact decimal text (tostring would switch to exponent notation)
local function int(x)
  return string.format('%.0f', x)
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

-- A fresh id that no stored message has (a caller may have chosen the same text).
local function new_id()
  while true do
    local id = base36(redis.call('INCR', K_SEQ))
    if redis.call('HEXISTS', K_BODY, id) == 0 then
      return id
    end
  end
end

-- Dead-letter an id that is no longer ready or in flight, then trim to the retention,
-- deleting the oldest dead letters with their bodies.
local function bury(id, reason, now, retention)
  redis.call('ZADD', K_DEAD, now, id)
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

-- Settling calls name the attempt they were handed; a delivery whose lease expired (and whose
-- message may have been handed out again) no longer owns the message, even before a claim has
-- reaped the lease.
local function owns(id, attempt)
  local deadline = redis.call('ZSCORE', K_INFLIGHT, id)
  if not deadline or tonumber(deadline) <= now_ms() then
    return false
  end
  return redis.call('HGET', K_ATT, id) == attempt
end

-- Expired leases: back to ready, or to the dead letters once max attempts were used.
-- Returns how many went back and how many were buried.
local function reap(now, max_attempts, retention, limit)
  local expired = redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, limit)
  local returned, buried = 0, 0
  for _, id in ipairs(expired) do
    redis.call('ZREM', K_INFLIGHT, id)
    if redis.call('HEXISTS', K_BODY, id) == 1 then
      local att = tonumber(redis.call('HGET', K_ATT, id) or '0')
      if att >= max_attempts then
        bury(id, 'lease expired on attempt ' .. att .. ' of ' .. max_attempts, now, retention)
        buried = buried + 1
      else
        push_ready(id, now)
        returned = returned + 1
      end
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
