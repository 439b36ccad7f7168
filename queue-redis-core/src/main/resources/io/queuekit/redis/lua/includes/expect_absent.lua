-- expect_absent(K_X, redis.call('EXISTS', K_X)): a key of another layout must not exist.
--- @include "storage"
local function expect_absent(key, exists)
  if exists == 1 then
    return error('queuekit: ' .. key .. ' exists, which a ' .. LAYOUT .. ' queue does not have; '
        .. 'is this queue of another type?')
  end
end
