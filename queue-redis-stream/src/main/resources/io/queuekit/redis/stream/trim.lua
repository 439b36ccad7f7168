-- One soft retention pass: removes the oldest entries that the length (ARGV[1], 0: none) or the
-- age in ms (ARGV[2], 0: none) allows to remove and that every durable group has acked (neither
-- past its last-delivered id nor pending in it; subscriptions, '~' groups, hold nothing back),
-- at most ARGV[3] of them. Returns how many it removed.
-- Work: one XPENDING summary per group, XRANGE of at most ARGV[3] + 1 entries, XTRIM of at most
-- ARGV[3].
--- @include "check_layout"
--- @include "now_ms"
--- @include "fields"
--- @include "sid_less"
local K_LAYOUT, K_READY, K_DELAYED = KEYS[1], KEYS[2], KEYS[3]
check_layout()
if redis.call('EXISTS', K_READY) == 0 then
  return 0
end
local max_length, max_age, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local len = redis.call('XLEN', K_READY)
if len == 0 then
  return 0
end
-- the oldest limit + 1 entries: no pass removes more than limit
local head = redis.call('XRANGE', K_READY, '-', '+', 'COUNT', limit + 1)
-- keep: the first entry that must stay; nil while every entry read may go
local keep = nil
local function keep_from(sid)
  if keep == nil or sid_less(sid, keep) then
    keep = sid
  end
end
if #head > limit then
  keep_from(head[limit + 1][1])
end
-- the retention's own bound: the newest max_length, or those younger than max_age
local by_length = max_length > 0 and len > max_length
local by_age = max_age > 0
if not by_length and not by_age then
  return 0
end
local allowed = nil
if by_length then
  local over = len - max_length
  allowed = head[math.min(over + 1, #head)][1]
end
if by_age then
  local min_id = (now_ms() - max_age) .. '-0'
  if allowed == nil or sid_less(allowed, min_id) then
    allowed = min_id -- the age allows more
  end
end
if allowed ~= nil then
  keep_from(allowed)
end
-- what the durable groups still need
for _, g in ipairs(redis.call('XINFO', 'GROUPS', K_READY)) do
  local f = fields(g)
  if string.sub(f['name'], 1, 1) ~= '~' then
    local pending = redis.call('XPENDING', K_READY, f['name'])
    if pending[2] then
      keep_from(pending[2])
    end
    local ms, seq = string.match(f['last-delivered-id'], '^(%d+)-(%d+)$')
    keep_from(ms .. '-' .. string.format('%.0f', tonumber(seq) + 1))
  end
end
if keep == nil then
  -- every entry read may go, and there are at most limit
  keep = head[#head][1]
  local ms, seq = string.match(keep, '^(%d+)-(%d+)$')
  keep = ms .. '-' .. string.format('%.0f', tonumber(seq) + 1)
end
return redis.call('XTRIM', K_READY, 'MINID', keep)
