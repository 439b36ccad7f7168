-- no script includes this one
local function unused_helper(id)
  return redis.call('HDEL', K_BODY, id)
end
