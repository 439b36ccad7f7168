-- The earliest time something becomes claimable: a delayed message falls due or a lease
-- expires; -1 if neither.
--- @include "next_due"
local function next_event(now)
  local t = next_due(now)
  local lease = redis.call('ZRANGE', K_INFLIGHT, 0, 0, 'WITHSCORES')
  if lease[2] then
    local l = tonumber(lease[2])
    if t < 0 or l < t then
      t = l
    end
  end
  return t
end
