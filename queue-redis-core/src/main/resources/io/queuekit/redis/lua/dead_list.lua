-- The oldest ARGV[1] dead letters, in the order they died: {id, dead at ms, attempts, reason,
-- body, ...}. Read-only.
check_layout()
local out = {}
local rows = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #rows, 2 do
  local id = rows[i]
  out[#out + 1] = id
  out[#out + 1] = int(ms_of(rows[i + 1]))
  out[#out + 1] = redis.call('HGET', K_ATT, id) or '0'
  out[#out + 1] = redis.call('HGET', K_REASON, id) or ''
  out[#out + 1] = redis.call('HGET', K_BODY, id) or ''
end
return out
