-- Settling calls name the fencing token of the hand-out they came from; a delivery whose lease
-- expired (and whose message may have been handed out again) no longer owns the message, even
-- before a claim has reaped the lease, and no token repeats, so not even a later message stored
-- under the same id can be settled by it.
--- @include "now_ms"
local function owns(id, token)
  local deadline = redis.call('ZSCORE', K_INFLIGHT, id)
  if not deadline or tonumber(deadline) <= now_ms() then
    return false
  end
  return redis.call('HGET', K_LEASE, id) == token
end
