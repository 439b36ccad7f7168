-- how many messages are due by now
--- @include "max_score"
local function count_ready(now)
  return redis.call('ZCOUNT', K_READY, '-inf', max_score(now))
end
