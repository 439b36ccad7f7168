-- An id whose lease expired: back to ready, or to the dead letters once max attempts were used
-- (expire_lease.lua). Returns 'returned', 'buried', or nil if its body was gone.
--- @include "unlease"
--- @include "expire_lease"
local function reap_one(id, now, max_attempts, retention)
  unlease(id)
  if redis.call('HEXISTS', K_BODY, id) == 0 then
    return nil
  end
  if expire_lease(id, tonumber(redis.call('HGET', K_ATT, id) or '0'), now, max_attempts, retention) then
    return 'buried'
  end
  return 'returned'
end
