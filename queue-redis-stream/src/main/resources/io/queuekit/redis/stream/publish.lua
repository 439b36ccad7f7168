-- Publish messages to the topic: one stream entry each, field 'b' the payload section.
-- ARGV[1] the hard cap on the stream's length (0: none), then the payload sections, in order.
-- Returns {groups, missed, id, id, ...}: how many groups the topic has, how many entries the cap
-- removed before a group had acked them (counted once per such group), and each entry's stream id.
-- The group count is the counts field 'groups', which create.lua and delete.lua keep; where it is
-- absent (a topic of another version) XINFO GROUPS counts the groups once and records it.
-- Work: one XADD per message and one HGET; under a hard cap (a rare path), XINFO GROUPS of the
-- topic's groups once, and per message at most CAP_STEP removals, each with one XPENDING per group
-- (the entry is counted missed for each group that had not acked it), so a cap lowered far below
-- the stream's length is reached over later publishes; then two commands per group that had not
-- read a removed entry, so that its lag counts only what is left.
--- @include "check_layout"
--- @include "mark_layout"
--- @include "sid_less"
--- @include "fields"
local K_LAYOUT, K_READY, K_DELAYED, K_COUNTS, K_MISSED = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
mark_layout()
local cap = tonumber(ARGV[1])
local CAP_STEP = 100
local groups = nil
local missed = 0

-- per group index: how many entries, and how many published ones (no 'g' field), the cap removed
-- before the group read them
local skipped, skipped_plain = {}, {}

-- counts each entry the cap is about to remove for every group that had not acked it
local function count_missed(removing)
  if groups == nil then
    groups = redis.call('XINFO', 'GROUPS', K_READY)
  end
  for _, e in ipairs(removing) do
    local sid = e[1]
    local plain = fields(e[2])['g'] == nil
    for i, g in ipairs(groups) do
      local f = fields(g)
      local unread = sid_less(f['last-delivered-id'], sid)
      if unread or redis.call('XPENDING', K_READY, f['name'], sid, sid, 1)[1] then
        redis.call('HINCRBY', K_MISSED, f['name'], 1)
        missed = missed + 1
      end
      if unread then
        skipped[i] = (skipped[i] or 0) + 1
        if plain then
          skipped_plain[i] = (skipped_plain[i] or 0) + 1
        end
      end
    end
  end
end

-- An entry removed before a group read it will never be read, yet the lag counts it until it is:
-- the read counter (r:<group>, for servers before 7.0) and the server's entries-read (7.0 to 7.4
-- do not correct it on XTRIM) are moved on past it. Work: two commands per group that skipped any.
local function count_skipped_read()
  for i, n in pairs(skipped) do
    local f = fields(groups[i])
    if skipped_plain[i] and redis.call('HEXISTS', K_COUNTS, 'r:' .. f['name']) == 1 then
      redis.call('HINCRBY', K_COUNTS, 'r:' .. f['name'], skipped_plain[i])
    end
    if f['entries-read'] then
      redis.call('XGROUP', 'SETID', K_READY, f['name'], f['last-delivered-id'],
        'ENTRIESREAD', f['entries-read'] + n)
    end
  end
end

local out = {0, 0}
for i = 2, #ARGV do
  if cap > 0 then
    local over = math.min(redis.call('XLEN', K_READY) + 1 - cap, CAP_STEP)
    if over > 0 then
      local removing = redis.call('XRANGE', K_READY, '-', '+', 'COUNT', over)
      count_missed(removing)
      local ms, seq = string.match(removing[#removing][1], '^(%d+)-(%d+)$')
      redis.call('XTRIM', K_READY, 'MINID', ms .. '-' .. string.format('%.0f', tonumber(seq) + 1))
    end
  end
  out[#out + 1] = redis.call('XADD', K_READY, '*', 'b', ARGV[i])
end
redis.call('HINCRBY', K_COUNTS, 'added', #ARGV - 1)
count_skipped_read()
out[2] = missed
local stored = redis.call('HGET', K_COUNTS, 'groups')
local count = stored and tonumber(stored)
local was = count
if groups ~= nil then
  count = #groups -- read anyway: the count is corrected if anything went round the scripts
elseif not count then
  count = #redis.call('XINFO', 'GROUPS', K_READY)
end
if count ~= was then
  redis.call('HSET', K_COUNTS, 'groups', count)
end
out[1] = count
return out
