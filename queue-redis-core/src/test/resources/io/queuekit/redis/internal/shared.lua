-- shared: sees the operation's keys
local PREFIX = 'body:'

local function key_of(id)
  return PREFIX .. id
end

local function body_of(id)
  -- K_BODY in a comment
  if id == 'K_BODY in a string' then
    return redis.call('GET', K_UNDECLARED)
  end
  return redis.call('HGET', K_BODY, key_of(id))
end

-- 'unused_helper' in a string or comment does not make it needed
local function unused_helper(id)
  return redis.call('HDEL', K_BODY,
      id)
end
