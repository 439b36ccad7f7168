-- Removes and returns up to n due ids, in delivery order, and the due time (ms) of the first
-- message still waiting: -1 if none, nil if not looked up. For a few, one ZRANGE reads both.
--- @include "ms_range"
--- @include "ms_of"
--- @include "slices"
local function pop_ready(n, now)
  local max = ms_range(now) -- the highest score due by now
  local ids, next = {}, nil
  if n <= 4 then
    local head = redis.call('ZRANGE', K_READY, 0, n, 'WITHSCORES')
    next = -1
    for i = 1, #head, 2 do
      if #ids < n and tonumber(head[i + 1]) <= max then
        ids[#ids + 1] = head[i]
      else
        next = ms_of(head[i + 1])
        break
      end
    end
  else
    ids = redis.call('ZRANGEBYSCORE', K_READY, '-inf', max, 'LIMIT', 0, n)
  end
  for _, part in ipairs(slices(ids)) do
    redis.call('ZREM', K_READY, unpack(part))
  end
  return ids, next
end
