-- fails if a key holds another type than the delay queue's, or a list queue's key exists
--- @include "expect_type"
--- @include "expect_absent"
local function check_types()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'zset')
  expect_absent(K_CLAIMING, redis.call('EXISTS', K_CLAIMING))
  expect_absent(K_DELAYED, redis.call('EXISTS', K_DELAYED))
end
