-- Refuses to run on keys of another layout, before anything is written: a script that failed
-- midway would leave its earlier writes behind (Redis does not roll a script back).
-- expect_type(K_X, redis.call('TYPE', K_X), 'zset'): the key may be missing or of that type.
--- @include "storage"
local function expect_type(key, reply, want)
  local t = reply['ok']
  if t ~= 'none' and t ~= want then
    return error('queuekit: ' .. key .. ' is a ' .. t .. ', not the ' .. want .. ' of a ' .. LAYOUT
        .. ' queue; is this queue of another type?')
  end
end
