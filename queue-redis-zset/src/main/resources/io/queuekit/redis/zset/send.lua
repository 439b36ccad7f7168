-- Store messages and make them ready now or at a due time.
-- ARGV[1] 'new': ARGV[5..] are payloads, ids are generated; returns the ids.
--         'ids': ARGV[5..] are id, payload pairs; an id already stored is left alone;
--                returns 1 (stored) or 0 (ignored) per pair.
--         'each': ARGV[5..] are due time, payload pairs, each due time absolute in ms; ids are
--                generated; returns the ids.
-- ARGV[2] 'rel': ARGV[3] is a delay in ms from the server's clock; 'abs': a due time in ms.
--         Ignored with 'each' (pass 'abs' and 0).
-- ARGV[4] what generated ids end with: empty, or a shard's '~<shard>'.
-- Caller-chosen ids never begin with '@' (the caller checks), so they never meet generated ones.
-- A due time at or before now means now: behind what is already due.
-- A batch costs a few commands, not a few per message: one counter increment for all its ids,
-- one HSET and one ZADD per 500 messages, a score lookup per distinct due millisecond: work in
-- proportion to the batch, never to the queue.
--- @include "check_layout"
--- @include "now_ms"
--- @include "int"
--- @include "slices"
--- @include "new_id"
--- @include "new_ids"
--- @include "push_delayed"
--- @include "push_many"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SEQ = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_BODY, K_SIGNAL = KEYS[6], KEYS[7]
check_layout()
local now = now_ms()
local due = tonumber(ARGV[3])
if ARGV[2] == 'rel' then
  due = now + due
end
local header = int(now) .. ':'
local suffix = ARGV[4]

-- One payload under a generated id, as send, scheduleAt and a scheduleEach of one store it: what
-- the general path below does for one, without its tables, which cost this script a tenth of its
-- server time. An id already taken (the counter was reset) is replaced by another.
local one_due, one_payload
if ARGV[1] == 'new' and #ARGV == 5 then
  one_due, one_payload = due, ARGV[5]
elseif ARGV[1] == 'each' and #ARGV == 6 then
  one_due, one_payload = tonumber(ARGV[5]), ARGV[6]
end
if one_payload then
  local id = new_id(suffix)
  redis.call('HSET', K_BODY, id, header .. one_payload)
  push_delayed(id, math.max(one_due, now), now)
  return {id}
end

if ARGV[1] == 'ids' then
  local out, ids, dues = {}, {}, {}
  for i = 5, #ARGV, 2 do
    if redis.call('HEXISTS', K_BODY, ARGV[i]) == 0 then
      redis.call('HSET', K_BODY, ARGV[i], header .. ARGV[i + 1])
      ids[#ids + 1] = ARGV[i]
      dues[#dues + 1] = due
      out[#out + 1] = 1
    else
      out[#out + 1] = 0
    end
  end
  push_many(ids, dues, now)
  return out
end

local bodies, dues = {}, {}
if ARGV[1] == 'new' then
  for i = 5, #ARGV do
    bodies[#bodies + 1] = header .. ARGV[i]
    dues[#dues + 1] = due
  end
else -- 'each'
  for i = 5, #ARGV, 2 do
    dues[#dues + 1] = tonumber(ARGV[i])
    bodies[#bodies + 1] = header .. ARGV[i + 1]
  end
end
if #bodies == 0 then
  return {}
end
-- two or more (one takes the path above), under fresh generated ids, in order
local ids = new_ids(#bodies, suffix)
local fields = {}
for i, id in ipairs(ids) do
  fields[#fields + 1] = id
  fields[#fields + 1] = bodies[i]
end
for _, part in ipairs(slices(fields)) do
  redis.call('HSET', K_BODY, unpack(part))
end
push_many(ids, dues, now)
return ids
