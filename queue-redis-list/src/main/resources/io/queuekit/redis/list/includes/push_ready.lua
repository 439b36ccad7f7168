-- a requeued dead letter becomes an envelope again, as the attempt after those it had
--- @include "ready_again"
local function push_ready(id, now)
  local body = redis.call('HGET', K_BODY, id)
  local colon = string.find(body, ':', 1, true)
  ready_again(id, now, tonumber(redis.call('HGET', K_ATT, id) or '0'), string.sub(body, 1, colon - 1),
      string.sub(body, colon + 1))
  redis.call('HDEL', K_BODY, id)
  redis.call('HDEL', K_ATT, id)
end
