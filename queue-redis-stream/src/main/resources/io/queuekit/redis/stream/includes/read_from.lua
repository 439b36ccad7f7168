-- Records where group starts reading after setting its id to start ('$': the end, '0': the
-- beginning, else an id; kind 'end', 'beginning' or 'id'): its last-delivered id ('l:<group>',
-- group_last), the read counter ('r:<group>', the lag on servers before 7.0) and, on 7.0 and later
-- for an id, the server's entries-read (XGROUP SETID ... ENTRIESREAD). At the end every entry
-- added so far counts as read; at the beginning all but those the stream holds; after an id all
-- but those after it, counted only while the stream holds at most COUNT_BOUND entries after it
-- (else unknown: the counter is removed and the server's left to estimate).
-- Work: a few commands; XINFO STREAM (which copies the first and last entry); for an id, XRANGE of
-- at most COUNT_BOUND + 1 (101) entries, copied whole: with 64 KB payloads some 6.5 MB.
--- @include "fields"
local COUNT_BOUND = 100 -- small: each entry counted is copied whole, whatever its payload
local function read_from(group, start, kind)
  local field = 'r:' .. group
  local s = fields(redis.call('XINFO', 'STREAM', K_READY))
  if kind == 'end' then
    redis.call('HSET', K_COUNTS, 'l:' .. group, s['last-generated-id'])
    redis.call('HSET', K_COUNTS, field, redis.call('HGET', K_COUNTS, 'added') or 0)
    return
  end
  local added = tonumber(redis.call('HGET', K_COUNTS, 'added') or 0)
  if kind == 'beginning' then
    redis.call('HSET', K_COUNTS, 'l:' .. group, '0-0')
    redis.call('HSET', K_COUNTS, field, math.max(0, added - redis.call('XLEN', K_READY)))
    return
  end
  local ms, seq = string.match(start, '^(%d+)-(%d+)$')
  local id = (string.gsub(ms, '^0+(%d)', '%1')) .. '-' .. (string.gsub(seq, '^0+(%d)', '%1'))
  redis.call('HSET', K_COUNTS, 'l:' .. group, id)
  local entries = redis.call('XRANGE', K_READY, '(' .. id, '+', 'COUNT', COUNT_BOUND + 1)
  local after = #entries
  if after > COUNT_BOUND then
    redis.call('HDEL', K_COUNTS, field)
    return
  end
  -- the counter counts published entries (no 'g' field), the server every entry
  local plain = 0
  for _, e in ipairs(entries) do
    if fields(e[2])['g'] == nil then
      plain = plain + 1
    end
  end
  redis.call('HSET', K_COUNTS, field, math.max(0, added - plain))
  if s['entries-added'] then
    redis.call('XGROUP', 'SETID', K_READY, group, id, 'ENTRIESREAD', math.max(0, s['entries-added'] - after))
  end
end
