-- The oldest ARGV[1] dead letters, in the order they died: {id, dead at ms, attempts, reason,
-- body, ...}. Read-only. Both queues run it. Work: ARGV[1] dead letters.
--- @include "check_layout"
--- @include "dead_letter"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD, K_ATT, K_REASON, K_BODY = KEYS[6], KEYS[7], KEYS[8], KEYS[9]
check_layout()
local out = {}
local rows = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #rows, 2 do
  out[#out + 1] = rows[i]
  dead_letter(out, rows[i], rows[i + 1])
end
return out
