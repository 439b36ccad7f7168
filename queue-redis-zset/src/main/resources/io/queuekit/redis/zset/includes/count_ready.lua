-- how many messages are due by now
--- @include "ms_range"
local function count_ready(now)
  local highest = ms_range(now)
  return redis.call('ZCOUNT', K_READY, '-inf', highest)
end
