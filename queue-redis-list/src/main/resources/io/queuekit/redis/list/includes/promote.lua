-- due retries go behind the messages already waiting
--- @include "mark_layout"
--- @include "slices"
local function promote(now)
  local due = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, 1000)
  if #due > 0 then
    mark_layout()
  end
  for _, part in ipairs(slices(due)) do
    redis.call('ZREM', K_DELAYED, unpack(part))
    redis.call('LPUSH', K_READY, unpack(part))
  end
end
