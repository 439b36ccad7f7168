-- fails if a key holds another type than the list queue's, or a delay queue's key exists
--- @include "expect_type"
--- @include "expect_absent"
local function check_types()
  expect_type(K_READY, redis.call('TYPE', K_READY), 'list')
  expect_type(K_CLAIMING, redis.call('TYPE', K_CLAIMING), 'list')
  expect_type(K_DELAYED, redis.call('TYPE', K_DELAYED), 'zset')
  expect_absent(K_LEASE, redis.call('EXISTS', K_LEASE))
end
