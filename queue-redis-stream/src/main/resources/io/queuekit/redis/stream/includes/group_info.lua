-- The group's entry in XINFO GROUPS as a table by field, or nil if the topic has no such group.
-- Work: the topic's groups.
--- @include "fields"
local function group_info(group)
  if redis.call('EXISTS', K_READY) == 0 then
    return nil
  end
  for _, g in ipairs(redis.call('XINFO', 'GROUPS', K_READY)) do
    local f = fields(g)
    if f['name'] == group then
      return f
    end
  end
  return nil
end
