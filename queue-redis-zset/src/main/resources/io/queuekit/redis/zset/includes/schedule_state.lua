-- A schedule's state in the 'schedules' hash, field '<name> state': "version:base:last:previous"
-- (ms; '-' for no tick). The id of the last tick stored is in '<name> tick', its definition in
-- '<name>', its stored payload in '<name> body'.
--- @include "int"
local function read_state(name)
  local s = redis.call('HGET', K_SCHEDULES, name .. ' state')
  if not s then
    return nil
  end
  local v, b, l, p = string.match(s, '^(%-?%d+):(%-?%d+):([%-%d]+):([%-%d]+)$')
  return {version = tonumber(v), base = tonumber(b), last = tonumber(l), previous = tonumber(p)}
end

local function write_state(name, st)
  local function ms(t)
    if t then
      return int(t)
    end
    return '-'
  end
  redis.call('HSET', K_SCHEDULES, name .. ' state',
      ms(st.version) .. ':' .. ms(st.base) .. ':' .. ms(st.last) .. ':' .. ms(st.previous))
end
