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
-- At-least-once consumers take with BLMOVE/LMOVE from 'ready' into 'claiming', which holds the
-- envelopes in flight; the move is atomic, so a message is always in exactly one place. 'inflight'
-- holds their leases by id: sweep() starts a lease for every envelope it finds in 'claiming'
-- without one, and returns envelopes whose lease expired to 'ready' as their next attempt (or
-- buries them at the maximum attempts). Dead letters are stored as both queues store them
-- (common.lua): body "<enqueued ms>:<payload>" in 'body', attempts in 'att'.

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

-- Leases for the (at most 5000 oldest) envelopes in flight, and what happens when they expire.
-- An element of 'claiming' that is not an envelope was pushed by someone else: it is buried
-- under a fresh id so that an operator sees it. Returns how many expired leases went back to
-- 'ready' and how many were buried.
local function sweep(now, lease_ms, max_attempts, retention)
  if redis.call('LLEN', K_CLAIMING) == 0 then
    return 0, 0
  end
  local by_id, leases = {}, {}
  for _, e in ipairs(redis.call('LRANGE', K_CLAIMING, -5000, -1)) do
    local id = string.match(e, '^(%S+) %d+ %d+ ')
    if id then
      by_id[id] = e
      leases[#leases + 1] = now + lease_ms
      leases[#leases + 1] = id
    else
      redis.call('LREM', K_CLAIMING, -1, e)
      local foreign = new_id()
      redis.call('HSET', K_BODY, foreign, int(now) .. ':' .. e)
      redis.call('HSET', K_ATT, foreign, 0)
      bury(foreign, 'not a queuekit message: found in the list as it is', now, retention)
    end
  end
  for _, part in ipairs(slices(leases)) do
    redis.call('ZADD', K_INFLIGHT, 'NX', unpack(part))
  end
  local expired = redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, 1000)
  local returned, buried = 0, 0
  for _, id in ipairs(expired) do
    redis.call('ZREM', K_INFLIGHT, id)
    local e = by_id[id]
    if e and redis.call('LREM', K_CLAIMING, -1, e) == 1 then
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
  return returned, buried
end
