-- One soft retention pass: removes the oldest entries that the length (ARGV[1], 0: none) or the
-- age in ms (ARGV[2], 0: none) allows to remove and that every durable group has acked (neither
-- past its last-delivered id nor pending in it; subscriptions, '~' groups, hold nothing back),
-- at most ARGV[3] of them. Returns how many it removed.
-- Work: one XPENDING summary per group, XRANGE of only the entries it removes (at most ARGV[3]:
-- the groups' floor bounds the reads, so a pass that can remove nothing reads none), XTRIM of
-- those.
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
local by_length = max_length > 0 and len > max_length
local by_age = max_age > 0
if len == 0 or (not by_length and not by_age) then
  return 0
end
-- An end of the entries that may go, as XRANGE takes it: the id, inclusive, or '(' and the id,
-- exclusive; nil while nothing bounds them. tighter(a, b) is the end that lets fewer go.
local function tighter(a, b)
  if a == nil or b == nil then
    return a or b
  end
  local a_id, b_id = (string.gsub(a, '^%(', '')), (string.gsub(b, '^%(', ''))
  if a_id == b_id then
    return string.sub(a, 1, 1) == '(' and a or b
  end
  return sid_less(a_id, b_id) and a or b
end
-- the floor: what the durable groups still need stays (no arithmetic on ids, so none is invalid)
local floor = nil
for _, g in ipairs(redis.call('XINFO', 'GROUPS', K_READY)) do
  local f = fields(g)
  if string.sub(f['name'], 1, 1) ~= '~' then
    local pending = redis.call('XPENDING', K_READY, f['name'])
    if pending[2] then
      floor = tighter(floor, '(' .. pending[2])
    end
    floor = tighter(floor, f['last-delivered-id'])
  end
end
-- Both bounds let a prefix of the stream go; the pass removes the longer, at most limit. Each
-- read returns only entries that go: those below the floor, among what the bound allows.
local n, last = 0, nil
if by_length then
  local read = redis.call('XRANGE', K_READY, '-', floor or '+', 'COUNT', math.min(len - max_length, limit))
  n = #read
  if n > 0 then
    last = read[n][1]
  end
end
if by_age and n < limit then
  local young = '(' .. (now_ms() - max_age) .. '-0'
  local read = redis.call('XRANGE', K_READY, last and ('(' .. last) or '-', tighter(floor, young),
    'COUNT', limit - n)
  n = n + #read
end
if n == 0 then
  return 0
end
return redis.call('XTRIM', K_READY, 'MAXLEN', len - n)
