-- An id whose lease expired: back to ready, or to the dead letters once max attempts were used.
-- Returns 'returned', 'buried', or nil if its body was gone.
--- @include "unlease"
--- @include "bury"
--- @include "push_ready"
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
