-- Records where group starts reading, for the lag on servers that do not give it (before 7.0):
-- at the end, every entry added so far counts as read; at the beginning, all but those the
-- stream holds; from any other id, unknown.
local function read_from(group, kind)
  local field = 'r:' .. group
  if kind == 'end' then
    redis.call('HSET', K_COUNTS, field, redis.call('HGET', K_COUNTS, 'added') or 0)
  elseif kind == 'beginning' then
    local added = tonumber(redis.call('HGET', K_COUNTS, 'added') or 0)
    redis.call('HSET', K_COUNTS, field, math.max(0, added - redis.call('XLEN', K_READY)))
  else
    redis.call('HDEL', K_COUNTS, field)
  end
end
