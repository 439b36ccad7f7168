-- Delete a schedule and withdraw its tick stored ahead if not due yet. ARGV[1] name.
-- Returns 1 if it was stored, else 0. Work: a few commands on one schedule.
--- @include "check_layout"
--- @include "now_ms"
--- @include "schedule_state"
--- @include "schedule_withdraw"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_BODY, K_ATT = KEYS[6], KEYS[7]
check_layout()
local name = ARGV[1]
local st = read_state(name)
if not st then
  return 0
end
withdraw(name, st, now_ms())
redis.call('HDEL', K_SCHEDULES, name, name .. ' body', name .. ' state', name .. ' tick')
return 1
