-- Every schedule of the queue, without payloads: {now ms, name, definition, state, ...}. Read-only.
-- No ARGV. Work: one HGETALL of the 'schedules' hash, in proportion to the number of schedules.
--- @include "check_layout"
--- @include "now_ms"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_SCHEDULES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
local out = {now_ms()}
local all = redis.call('HGETALL', K_SCHEDULES)
local defs, states = {}, {}
for i = 1, #all, 2 do
  local f = all[i]
  local name, part = string.match(f, '^(%S+) (%a+)$')
  if not name then
    defs[f] = all[i + 1]
  elseif part == 'state' then
    states[name] = all[i + 1]
  end
end
for name, def in pairs(defs) do
  if states[name] then
    out[#out + 1] = name
    out[#out + 1] = def
    out[#out + 1] = states[name]
  end
end
return out
