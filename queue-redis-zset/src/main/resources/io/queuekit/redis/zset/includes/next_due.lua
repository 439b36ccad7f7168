-- the due time of the first waiting message, or -1
--- @include "ms_of"
local function next_due(now)
  local first = redis.call('ZRANGE', K_READY, 0, 0, 'WITHSCORES')
  if first[2] then
    return ms_of(first[2])
  end
  return -1
end
