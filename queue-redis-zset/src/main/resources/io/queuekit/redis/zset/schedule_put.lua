-- Create or replace a schedule. ARGV[1] name, ARGV[2] definition, ARGV[3] stored payload.
-- The same definition and payload as stored: nothing changes. Else the next version, the tick
-- stored ahead and not due yet withdrawn, ticks going on after now.
-- Returns {1 if changed else 0, state}. Work: a few commands on one schedule.
--- @include "check_layout"
--- @include "now_ms"
--- @include "schedule_state"
--- @include "schedule_withdraw"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_BODY, K_ATT = KEYS[6], KEYS[7]
check_layout()
local name = ARGV[1]
local now = now_ms()
local st = read_state(name)
if st and redis.call('HGET', K_SCHEDULES, name) == ARGV[2]
    and redis.call('HGET', K_SCHEDULES, name .. ' body') == ARGV[3] then
  return {0, redis.call('HGET', K_SCHEDULES, name .. ' state')}
end
-- versions come from one counter for the queue, so that a schedule removed and put again in the
-- same millisecond never meets a scheduler's fire from before the removal
local new = {version = redis.call('HINCRBY', K_SCHEDULES, ' versions', 1), base = now}
if st then
  withdraw(name, st, now)
  -- a tick not yet due is the new schedule's to decide, withdrawn or not (a user may have cancelled it)
  if st.last and st.last > now then
    new.last = st.previous
  else
    new.last = st.last
  end
end
redis.call('HSET', K_SCHEDULES, name, ARGV[2], name .. ' body', ARGV[3])
write_state(name, new)
return {1, redis.call('HGET', K_SCHEDULES, name .. ' state')}
