-- Storage of the list queue. Every waiting message is one element of 'ready', an envelope
-- "<id> <attempt> <enqueued ms> <payload>" that carries the whole message (<attempt> is the
-- attempt its next delivery will be), pushed on the left and taken from the right. A send is one
-- LPUSH and a waiting message needs no body hash. Retries waiting for their delay are envelopes in
-- the 'delayed' ZSET, scored by due ms.
--
-- This file provides what common.lua asks of a storage file, and the functions the list queue's
-- own scripts share (promote, sweep); the list queue sends, takes, acks and retries with scripts
-- of its own, and shares with the delay queue the layout check, dead letters and next_event.
--
-- At-least-once consumers take one with BLMOVE/LMOVE from 'ready' into 'claiming'; the move is
-- atomic, so a message is always in exactly one place. sweep() moves the envelopes it finds in
-- 'claiming' into the 'held' HASH by id, starting their leases, kept by id in 'inflight'; a batch
-- take (take.lua) moves them straight there. So 'claiming' holds only what was taken since the
-- last upkeep, and settling a message in flight costs the same however many are in flight.
-- sweep() returns envelopes whose lease expired to 'ready' as their next attempt (or buries them
-- at the maximum attempts). Dead letters are stored as both queues store them (common.lua): body
-- "<enqueued ms>:<payload>" in 'body', attempts in 'att'.

--- @include "common"
LAYOUT = 'list'

check_types = function()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'list')
  expect_type(K_CLAIMING, redis.call('TYPE', K_CLAIMING), 'list')
  expect_type(K_DELAYED, redis.call('TYPE', K_DELAYED), 'zset')
  expect_absent(K_LEASE, redis.call('EXISTS', K_LEASE))
end

-- id, attempt, enqueued ms and payload of an envelope; nil if it is not one
local function parse_envelope(e)
  local _, last, id, att, enq = string.find(e, '^(%S+) (%d+) (%d+) ')
  if not id then
    return nil
  end
  return id, tonumber(att), enq, string.sub(e, last + 1)
end

-- a requeued dead letter becomes an envelope again, as a first attempt
push_ready = function(id, now)
  mark_layout()
  local body = redis.call('HGET', K_BODY, id)
  local colon = string.find(body, ':', 1, true)
  redis.call('LPUSH', K_READY, id .. ' ' .. int(tonumber(redis.call('HGET', K_ATT, id) or '0') + 1)
      .. ' ' .. string.sub(body, 1, colon - 1) .. ' ' .. string.sub(body, colon + 1))
  redis.call('HDEL', K_BODY, id)
  redis.call('HDEL', K_ATT, id)
end

next_due = function(now)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
  if first[2] then
    return tonumber(first[2])
  end
  return -1
end

-- due retries go behind the messages already waiting
local function promote(now)
  local due = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, 1000)
  if #due > 0 then
    mark_layout()
  end
  for _, part in ipairs(slices(due)) do
    redis.call('ZREM', K_DELAYED, unpack(part))
    redis.call('LPUSH', K_READY, unpack(part))
  end
end

-- Moves envelopes in flight into 'held' by id, each with a lease ending lease_ms from now unless
-- it has one (an extension made before the upkeep): a lease then lasts past the deadline its
-- delivery keeps (the take plus the visibility timeout). The server's now is truncated to the
-- millisecond, hence the 1 added.
local function hold(envelopes, now, lease_ms)
  local held, leases = {}, {}
  for _, e in ipairs(envelopes) do
    local id = string.match(e, '^(%S+) %d+ %d+ ')
    held[#held + 1] = id
    held[#held + 1] = e
    leases[#leases + 1] = now + lease_ms + 1
    leases[#leases + 1] = id
  end
  for _, part in ipairs(slices(held)) do
    redis.call('HSET', K_HELD, unpack(part))
  end
  for _, part in ipairs(slices(leases)) do
    redis.call('ZADD', K_INFLIGHT, 'NX', unpack(part))
  end
end

-- Takes an envelope out of flight, wherever it is: in 'held' under its id (only if it is that
-- envelope: a later attempt's differs), or still in 'claiming', where what was taken since the
-- last upkeep waits, the newest first. True if it was in flight.
local function unhold(e, id)
  if redis.call('HGET', K_HELD, id) == e then
    redis.call('HDEL', K_HELD, id)
  elseif redis.call('LREM', K_CLAIMING, 1, e) == 0 then
    return false
  end
  redis.call('ZREM', K_INFLIGHT, id)
  return true
end

-- What one sweep takes on: the oldest envelopes of 'claiming', and expired leases. The rest waits
-- for the next call, so that no sweep holds Redis up for long.
local CLAIMING_STEP = 1000
local EXPIRED_STEP = 100

-- Leases for the envelopes in 'claiming' (the oldest CLAIMING_STEP; the count returned last says
-- if more wait), which move to 'held', and what happens when leases expire (EXPIRED_STEP of
-- them). An element of 'claiming' that is not an envelope was pushed by someone else: it is
-- buried under a fresh id so that an operator sees it.
-- Returns how many expired leases went back to 'ready', how many were buried, and how many
-- elements are still in 'claiming'.
local function sweep(now, lease_ms, max_attempts, retention)
  local left = redis.call('LLEN', K_CLAIMING)
  if left > 0 then
    local envelopes = {}
    for _, e in ipairs(redis.call('LRANGE', K_CLAIMING, -CLAIMING_STEP, -1)) do
      if string.match(e, '^(%S+) %d+ %d+ ') then
        envelopes[#envelopes + 1] = e
      else
        local foreign = new_id()
        redis.call('HSET', K_BODY, foreign, int(now) .. ':' .. e)
        redis.call('HSET', K_ATT, foreign, 0)
        bury(foreign, 'not a queuekit message: found in the list as it is', now, retention)
      end
    end
    redis.call('LTRIM', K_CLAIMING, 0, -CLAIMING_STEP - 1)
    left = math.max(0, left - CLAIMING_STEP)
    hold(envelopes, now, lease_ms)
  end
  local expired = redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, EXPIRED_STEP)
  local returned, buried = 0, 0
  for _, id in ipairs(expired) do
    redis.call('ZREM', K_INFLIGHT, id)
    local e = redis.call('HGET', K_HELD, id)
    if e then
      redis.call('HDEL', K_HELD, id)
      local _, att, enq, payload = parse_envelope(e)
      if att >= max_attempts then
        redis.call('HSET', K_BODY, id, enq .. ':' .. payload)
        redis.call('HSET', K_ATT, id, att)
        bury(id, 'lease expired on attempt ' .. att .. ' of ' .. max_attempts, now, retention)
        buried = buried + 1
      else
        mark_layout()
        redis.call('LPUSH', K_READY, id .. ' ' .. int(att + 1) .. ' ' .. enq .. ' ' .. payload)
        returned = returned + 1
      end
    end
  end
  return returned, buried, left
end
