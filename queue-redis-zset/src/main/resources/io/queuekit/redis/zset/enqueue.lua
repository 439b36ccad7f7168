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

local function store(id, payload, at)
  redis.call('HSET', K_BODY, id, header .. payload)
  if at > now then
    push_delayed(id, at, now)
  else
    push_ready(id, now)
  end
end

local out = {}
if ARGV[1] == 'new' then
  for i = 5, #ARGV do
    local id = new_id(suffix)
    store(id, ARGV[i], due)
    out[#out + 1] = id
  end
elseif ARGV[1] == 'each' then
  for i = 5, #ARGV, 2 do
    local id = new_id(suffix)
    store(id, ARGV[i + 1], tonumber(ARGV[i]))
    out[#out + 1] = id
  end
else
  for i = 5, #ARGV, 2 do
    if redis.call('HEXISTS', K_BODY, ARGV[i]) == 1 then
      out[#out + 1] = 0
    else
      store(ARGV[i], ARGV[i + 1], due)
      out[#out + 1] = 1
    end
  end
end
return out
