-- how many messages wait for a due time after now
--- @include "max_score"
--- @include "int"
local function count_delayed(now)
  return redis.call('ZCOUNT', K_READY, '(' .. int(max_score(now)), '+inf')
end
