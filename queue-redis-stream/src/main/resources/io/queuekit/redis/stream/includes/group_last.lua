-- The group's last-delivered id, or nil if the topic has no such group (or no stream).
-- Invariant: the counts field 'l:<group>', where present, is the group's last-delivered id, and
-- the group exists. Every script that moves the id records it (create.lua and replay.lua, from the
-- id they set; claim.lua, the last entry its XREADGROUP read; publish.lua's hard cap sets the id
-- it read), and delete.lua removes it with the group, so a group deleted and created again under
-- its name starts from the id its creation set. XCLAIM does not move the id. Where the field is
-- absent (the group was deleted, or made by another version or by hand) XINFO GROUPS is asked
-- once and what it says recorded. A group destroyed or moved by hand (redis-cli) is not seen
-- here until the claim's XPENDING before its read fails with NOGROUP, reported as deleted.
-- Work: one HGET; XINFO GROUPS of the topic's groups only where the field is absent.
--- @include "group_info"
local function group_last(group)
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
