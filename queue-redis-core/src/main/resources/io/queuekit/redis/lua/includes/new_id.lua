-- A fresh generated id: '@', a counter and suffix (nil for none; a shard of a sharded queue
-- passes its '~<shard>'). Callers may not choose ids that begin with '@', so only a generated id
-- can be taken already (after the counter was reset).
--- @include "base36"
local function new_id(suffix)
  while true do
    local id = '@' .. base36(redis.call('INCR', K_SEQ)) .. (suffix or '')
    if redis.call('HEXISTS', K_BODY, id) == 0 then
      return id
    end
  end
end
