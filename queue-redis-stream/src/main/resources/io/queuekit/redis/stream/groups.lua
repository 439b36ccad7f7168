-- The names of the topic's groups, read-only; {} while it has no stream. Work: the topic's groups.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED = KEYS[1], KEYS[2], KEYS[3]
check_layout()
local out = {}
if redis.call('EXISTS', K_READY) == 1 then
  for _, g in ipairs(redis.call('XINFO', 'GROUPS', K_READY)) do
    for i = 1, #g, 2 do
      if g[i] == 'name' then
        out[#out + 1] = g[i + 1]
      end
    end
  end
end
return out
