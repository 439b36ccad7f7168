-- Ends the lease of an id that was in flight.
local function unlease(id)
  redis.call('ZREM', K_INFLIGHT, id)
  redis.call('HDEL', K_LEASE, id)
end
