-- Store a schedule's ticks, once: only if the schedule is still at the version and base the
-- caller read, so that of several schedulers that read the same state one stores and the others
-- store nothing. ARGV[1] name, ARGV[2] version, ARGV[3] base, ARGV[4] the new base (ms),
-- ARGV[5..] id, due (ms) pairs in tick order: each stored with the schedule's payload unless its
-- id is stored (the chosen-id rule), due at its tick (one in the past is due now).
-- Returns 1 if the schedule moved, 0 if it had moved already or is gone. Work: in proportion to
-- the ticks given (the caller gives at most 1,000).
--- @include "check_layout"
--- @include "now_ms"
--- @include "int"
--- @include "push_many"
--- @include "schedule_state"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_BODY, K_SIGNAL = KEYS[6], KEYS[7]
check_layout()
local name = ARGV[1]
local st = read_state(name)
if not st or st.version ~= tonumber(ARGV[2]) or st.base ~= tonumber(ARGV[3]) then
  return 0
end
local body = redis.call('HGET', K_SCHEDULES, name .. ' body')
local now = now_ms()
local header = int(now) .. ':'
local ids, dues = {}, {}
local last_id, last_due, before_due
for i = 5, #ARGV, 2 do
  local id, due = ARGV[i], tonumber(ARGV[i + 1])
  if redis.call('HEXISTS', K_BODY, id) == 0 then
    redis.call('HSET', K_BODY, id, header .. body)
    ids[#ids + 1] = id
    dues[#dues + 1] = due
  end
  before_due = last_due
  last_id, last_due = id, due
end
push_many(ids, dues, now)
if last_id then
  st.previous = before_due or st.last
  st.last = last_due
  redis.call('HSET', K_SCHEDULES, name .. ' tick', last_id)
end
st.base = tonumber(ARGV[4])
write_state(name, st)
return 1
