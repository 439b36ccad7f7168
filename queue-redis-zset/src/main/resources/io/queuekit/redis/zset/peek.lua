-- The first ARGV[1] waiting messages, due or not, in the order they will be handed out, without
-- taking them: {id, due ms, deliveries so far, body or false, ...}. Read-only. Work: ARGV[1]
-- messages.
--- @include "check_layout"
--- @include "int"
--- @include "ms_of"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_BODY = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_ATT = KEYS[6]
check_layout()
local out = {}
local rows = redis.call('ZRANGE', K_READY, 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #rows, 2 do
  local id = rows[i]
  out[#out + 1] = id
  out[#out + 1] = int(ms_of(rows[i + 1]))
  out[#out + 1] = redis.call('HGET', K_ATT, id) or '0'
  out[#out + 1] = redis.call('HGET', K_BODY, id)
end
return out
