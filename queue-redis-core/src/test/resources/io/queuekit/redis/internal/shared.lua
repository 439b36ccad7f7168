-- shared: sees the operation's keys
local function body_of(id)
  return redis.call('HGET', K_BODY, id)
end
