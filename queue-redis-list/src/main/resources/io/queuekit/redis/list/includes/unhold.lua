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
