-- a requeued dead letter becomes an envelope again, as a first attempt
--- @include "mark_layout"
--- @include "int"
local function push_ready(id, now)
  mark_layout()
  local body = redis.call('HGET', K_BODY, id)
  local colon = string.find(body, ':', 1, true)
  redis.call('LPUSH', K_READY, id .. ' ' .. int(tonumber(redis.call('HGET', K_ATT, id) or '0') + 1)
      .. ' ' .. string.sub(body, 1, colon - 1) .. ' ' .. string.sub(body, colon + 1))
  redis.call('HDEL', K_BODY, id)
  redis.call('HDEL', K_ATT, id)
end
