-- Store messages and make them ready now or at a due time.
-- ARGV[1] 'new': ARGV[4..] are payloads, ids are generated; returns the ids.
--         'ids': ARGV[4..] are id, payload pairs; an id already stored is left alone;
--                returns 1 (stored) or 0 (ignored) per pair.
-- ARGV[2] 'rel': ARGV[3] is a delay in ms from the server's clock; 'abs': a due time in ms.
-- Caller-chosen ids never begin with '@' (the caller checks), so they never meet generated ones.
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SEQ = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_BODY, K_SIGNAL = KEYS[6], KEYS[7]
check_layout()
local now = now_ms()
local due = tonumber(ARGV[3])
if ARGV[2] == 'rel' then
  due = now + due
end
local header = int(now) .. ':'

local function store(id, payload)
  redis.call('HSET', K_BODY, id, header .. payload)
  if due > now then
    push_delayed(id, due, now)
  else
    push_ready(id, now)
  end
end

local out = {}
if ARGV[1] == 'new' then
  for i = 4, #ARGV do
    local id = new_id()
    store(id, ARGV[i])
    out[#out + 1] = id
  end
else
  for i = 4, #ARGV, 2 do
    if redis.call('HEXISTS', K_BODY, ARGV[i]) == 1 then
      out[#out + 1] = 0
    else
      store(ARGV[i], ARGV[i + 1])
      out[#out + 1] = 1
    end
  end
end
return out
