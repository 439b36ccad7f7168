-- One schedule's definition and stored payload: {definition, body}, or an empty reply if none.
-- Read-only. ARGV[1] name. Work: one HMGET.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
local r = redis.call('HMGET', K_SCHEDULES, ARGV[1], ARGV[1] .. ' body')
if not r[1] or not r[2] then
  return {}
end
return r
