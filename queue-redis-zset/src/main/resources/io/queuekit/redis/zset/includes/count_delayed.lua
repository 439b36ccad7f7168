-- how many messages wait for a due time after now
--- @include "ms_range"
--- @include "int"
local function count_delayed(now)
  local highest = ms_range(now)
  return redis.call('ZCOUNT', K_READY, '(' .. int(highest), '+inf')
end
