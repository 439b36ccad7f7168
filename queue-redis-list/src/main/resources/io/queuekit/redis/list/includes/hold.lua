-- Moves envelopes in flight into 'held' by id, each with a lease ending lease_ms from now unless
-- it has one (an extension made before the upkeep): a lease then lasts past the deadline its
-- delivery keeps (the take plus the visibility timeout). The server's now is truncated to the
-- millisecond, hence the 1 added.
--- @include "parse_envelope"
--- @include "slices"
local function hold(envelopes, now, lease_ms)
  local held, leases = {}, {}
  for _, e in ipairs(envelopes) do
    local id = parse_envelope(e)
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
