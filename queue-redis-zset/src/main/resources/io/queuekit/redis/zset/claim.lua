-- Take up to n due messages into flight under a lease, after acking what the caller finished
-- and returning expired leases. Atomic: a message is either still waiting or in flight with a
-- lease, never neither. Each hand-out gets a fencing token no other hand-out ever gets.
-- ARGV[1] n, ARGV[2] lease ms, ARGV[3] max attempts, ARGV[4] dead-letter retention,
-- ARGV[5] '1' if another consumer of the caller's queue object watches the next event: then a
-- claim that takes wakes no one for an event still to come (docs/wake-up-protocol.md, rule 2),
-- ARGV[6..] pairs of id, fencing token to ack first, as ack.lua does (a managed consumer's
-- finished delivery travels with its next claim; none for a plain claim).
-- While the queue is paused (KEYS[13] exists; docs/pausing.md) it makes the acks and nothing else:
-- no lease is reaped and nothing taken, and the next event is reported as ever (rule 11).
-- Returns {now, next event ms or -1, expired leases returned, expired leases dead-lettered,
--          acked, paused (1 or 0), id1, attempt1, token1, body1, id2, ...}.
-- Work: the acks passed, at most 100 expired leases (includes/reap.lua) and n hand-outs.
--- @include "check_layout"
--- @include "now_ms"
--- @include "int"
--- @include "slices"
--- @include "ack_pairs"
--- @include "reap"
--- @include "pop_ready"
--- @include "next_due"
--- @include "after_claim"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_SEQ, K_SIGNAL, K_PAUSED = KEYS[11], KEYS[12], KEYS[13]
check_layout()
local n, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = now_ms()
local acked = 0
if #ARGV > 5 then
  acked = ack_pairs(6, now)
end
-- the earliest lease: reap if it expired; else it is the lease part of the next event
local first_lease = redis.call('ZRANGE', K_INFLIGHT, 0, 0, 'WITHSCORES')
if redis.call('EXISTS', K_PAUSED) == 1 then
  local next, lease_at = next_due(now), tonumber(first_lease[2] or -1)
  if next < 0 or (lease_at >= 0 and lease_at < next) then
    next = lease_at
  end
  return {now, next, 0, 0, acked, 1}
end
local returned, buried = 0, 0
if first_lease[2] and tonumber(first_lease[2]) <= now then
  returned, buried = reap(now, tonumber(ARGV[3]), tonumber(ARGV[4]), 100)
  first_lease = redis.call('ZRANGE', K_INFLIGHT, 0, 0, 'WITHSCORES')
end
local next_lease = tonumber(first_lease[2] or -1)

local ids, next = pop_ready(n, now)

local out = {now, -1, returned, buried, acked, 0}
if #ids > 0 then
  local token = redis.call('INCRBY', K_SEQ, #ids) - #ids
  local leases, tokens, counts = {}, {}, {}
  -- values as text where one text serves many: Redis turns each number a script passes into
  -- text, with a printf, as the command's argument
  local deadline = int(now + lease)
  for _, part in ipairs(slices(ids)) do
    local bodies = redis.call('HMGET', K_BODY, unpack(part))
    -- attempts: one HINCRBY for one id, else read all and write back at once
    local atts = #part > 1 and redis.call('HMGET', K_ATT, unpack(part))
    for i, id in ipairs(part) do
      local body = bodies[i]
      if body then
        token = token + 1
        local attempt
        if atts then
          attempt = (tonumber(atts[i]) or 0) + 1
          counts[#counts + 1] = id
          counts[#counts + 1] = attempt == 1 and '1' or attempt
        else
          attempt = redis.call('HINCRBY', K_ATT, id, 1)
        end
        leases[#leases + 1] = deadline
        leases[#leases + 1] = id
        tokens[#tokens + 1] = id
        tokens[#tokens + 1] = token -- a number: Redis writes integers below 2^53 exactly
        out[#out + 1] = id
        out[#out + 1] = attempt
        out[#out + 1] = token
        out[#out + 1] = body
      end
    end
  end
  -- two values per id: slices of 1000 values keep whole pairs
  for _, part in ipairs(slices(leases)) do
    redis.call('ZADD', K_INFLIGHT, unpack(part))
  end
  for _, part in ipairs(slices(tokens)) do
    redis.call('HSET', K_LEASE, unpack(part))
  end
  for _, part in ipairs(slices(counts)) do
    redis.call('HSET', K_ATT, unpack(part))
  end
  if #leases > 0 and (next_lease < 0 or now + lease < next_lease) then
    next_lease = now + lease
  end
end
if not next then
  next = next_due(now)
end
if next < 0 or (next_lease >= 0 and next_lease < next) then
  next = next_lease
end
out[2] = next
if #ids > 0 and (ARGV[5] ~= '1' or next <= now) then
  after_claim(now, next)
end
return out
