-- What one reap takes on: the oldest envelopes of 'claiming', and expired leases. The rest waits
-- for the next call, so that no reap holds Redis up for long.
--- @include "hold"
--- @include "new_id"
--- @include "int"
--- @include "store_dead"
--- @include "bury"
--- @include "parse_envelope"
--- @include "expire_lease"
local CLAIMING_STEP = 1000
local EXPIRED_STEP = 100

-- Leases for the envelopes in 'claiming' (the oldest CLAIMING_STEP; the count returned last says
-- if more wait), which move to 'held', and what happens when leases expire (EXPIRED_STEP of
-- them; expire_lease.lua). An element of 'claiming' that is not an envelope was pushed by
-- someone else: it is buried under a fresh id so that an operator sees it.
-- Returns how many expired leases went back to 'ready', how many were buried, and how many
-- elements are still in 'claiming'.
local function reap(now, lease_ms, max_attempts, retention)
  local left = redis.call('LLEN', K_CLAIMING)
  if left > 0 then
    local envelopes = {}
    for _, e in ipairs(redis.call('LRANGE', K_CLAIMING, -CLAIMING_STEP, -1)) do
      if parse_envelope(e) then
        envelopes[#envelopes + 1] = e
      else
        local foreign = new_id()
        store_dead(foreign, 0, int(now), e)
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
      local _, att, enq, at = parse_envelope(e)
      if expire_lease(id, att, now, max_attempts, retention, enq, string.sub(e, at)) then
        buried = buried + 1
      else
        returned = returned + 1
      end
    end
  end
  return returned, buried, left
end
