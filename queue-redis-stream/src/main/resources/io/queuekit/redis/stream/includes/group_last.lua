-- The group's last-delivered id, or nil if the topic has no such group (or no stream).
-- Invariant: the counts field 'l:<group>', where present, is the group's last-delivered id. Every
-- script that moves the id records it (create.lua and replay.lua, from the id they set; claim.lua,
-- the last entry its XREADGROUP read; publish.lua's hard cap sets the id it read), and delete.lua
-- removes it with the group, so a group deleted and created again under its name starts from the
-- id its creation set. XCLAIM does not move the id. Where the field is absent (a group made by
-- another version, or by hand) the id is read once from XINFO GROUPS and recorded.
-- Work: one XPENDING of one entry and one HGET; XINFO GROUPS of the topic's groups only where
-- the field is absent.
--- @include "group_info"
local function group_last(group)
  local p = redis.pcall('XPENDING', K_READY, group, '-', '+', 1)
  if type(p) == 'table' and p.err then
    if string.find(p.err, 'NOGROUP', 1, true) then
      return nil
    end
    return error(p.err)
  end
  local field = 'l:' .. group
  local last = redis.call('HGET', K_COUNTS, field)
  if not last then
    local info = group_info(group)
    if not info then
      return nil
    end
    last = info['last-delivered-id']
    redis.call('HSET', K_COUNTS, field, last)
  end
  return last
end
