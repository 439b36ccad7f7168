-- One soft retention pass: removes the oldest entries that the length (ARGV[1], 0: none) or the
-- age in ms (ARGV[2], 0: none) allows to remove and that every durable group has acked (neither
-- past its last-delivered id nor pending in it), at most ARGV[3] of them. Subscriptions ('~'
-- groups) hold nothing back: what it removes before one read it is counted in 'missed' for that
-- group, and its lag moved on past what it will never read (what one read is in its process's
-- hands already). Returns {removed, missed}: how many entries it removed, and how many of them
-- subscriptions had not read (counted once per such subscription).
-- Work: one XPENDING summary per durable group, XRANGE of only the entries it removes (at most
-- ARGV[3]: the groups' floor bounds the reads, so a pass that can remove nothing reads none),
-- XTRIM of those; per subscription a comparison per entry removed, and two commands if it had
-- not read some.
--- @include "check_layout"
--- @include "now_ms"
--- @include "fields"
--- @include "sid_less"
local K_LAYOUT, K_READY, K_DELAYED, K_COUNTS, K_MISSED = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
if redis.call('EXISTS', K_READY) == 0 then
  return {0, 0}
end
local max_length, max_age, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local len = redis.call('XLEN', K_READY)
local by_length = max_length > 0 and len > max_length
local by_age = max_age > 0
if len == 0 or (not by_length and not by_age) then
  return {0, 0}
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
local subscriptions = {}
for _, g in ipairs(redis.call('XINFO', 'GROUPS', K_READY)) do
  local f = fields(g)
  if string.sub(f['name'], 1, 1) == '~' then
    subscriptions[#subscriptions + 1] = f
  else
    local pending = redis.call('XPENDING', K_READY, f['name'])
    if pending[2] then
      floor = tighter(floor, '(' .. pending[2])
    end
    floor = tighter(floor, f['last-delivered-id'])
  end
end
-- Both bounds let a prefix of the stream go; the pass removes the longer, at most limit. Each
-- read returns only entries that go: those below the floor, among what the bound allows.
local removing = {}
if by_length then
  removing = redis.call('XRANGE', K_READY, '-', floor or '+', 'COUNT', math.min(len - max_length, limit))
end
local n = #removing
if by_age and n < limit then
  local young = '(' .. (now_ms() - max_age) .. '-0'
  local read = redis.call('XRANGE', K_READY, n > 0 and ('(' .. removing[n][1]) or '-', tighter(floor, young),
    'COUNT', limit - n)
  for _, e in ipairs(read) do
    removing[#removing + 1] = e
  end
  n = #removing
end
if n == 0 then
  return {0, 0}
end

-- What a subscription had not read: the entries past its last-delivered id (its lag is moved on
-- past them, as publish.lua does for the hard cap).
local missed = 0
for _, f in ipairs(subscriptions) do
  local unread, unread_plain = 0, 0
  for _, e in ipairs(removing) do
    if sid_less(f['last-delivered-id'], e[1]) then
      unread = unread + 1
      if fields(e[2])['g'] == nil then
        unread_plain = unread_plain + 1
      end
    end
  end
  if unread > 0 then
    redis.call('HINCRBY', K_MISSED, f['name'], unread)
    missed = missed + unread
  end
  if unread_plain > 0 and redis.call('HEXISTS', K_COUNTS, 'r:' .. f['name']) == 1 then
    redis.call('HINCRBY', K_COUNTS, 'r:' .. f['name'], unread_plain)
  end
  if unread > 0 and f['entries-read'] then
    redis.call('XGROUP', 'SETID', K_READY, f['name'], f['last-delivered-id'], 'ENTRIESREAD', f['entries-read'] + unread)
  end
end
return {redis.call('XTRIM', K_READY, 'MAXLEN', len - n), missed}
