-- fails if the topic's stream or a group's retries are of another type than a stream topic's
--- @include "expect_type"
local function check_types()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'stream')
  expect_type(K_DELAYED, redis.call('TYPE', K_DELAYED), 'zset')
end
