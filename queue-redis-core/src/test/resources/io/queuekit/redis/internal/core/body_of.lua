-- core: sees the operation's keys
--- @include "key_of"
--- @include "prefix"

local function body_of(id)
  if id == 'K_BODY in a string' then -- K_BODY in a comment
    return redis.call('GET', K_UNDECLARED)
  end
  return redis.call('HGET', K_BODY, key_of(id))
end
