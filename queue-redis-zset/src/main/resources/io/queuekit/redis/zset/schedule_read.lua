-- Every schedule of the queue, without payloads: {now ms, name, definition, state, ...}. Read-only.
-- No ARGV. Work: one HKEYS of the 'schedules' hash and one HMGET per schedule, in proportion to
-- the number of schedules.
--- @include "check_layout"
--- @include "now_ms"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
local out = {now_ms()}
-- field names only, then the definitions and states: the payloads stay where they are
local fields = redis.call('HKEYS', K_SCHEDULES)
local names = {}
for _, f in ipairs(fields) do
  if not string.find(f, ' ', 1, true) then
    names[#names + 1] = f
  end
end
for _, name in ipairs(names) do
  local r = redis.call('HMGET', K_SCHEDULES, name, name .. ' state')
  if r[1] and r[2] then
    out[#out + 1] = name
    out[#out + 1] = r[1]
    out[#out + 1] = r[2]
  end
end
return out
