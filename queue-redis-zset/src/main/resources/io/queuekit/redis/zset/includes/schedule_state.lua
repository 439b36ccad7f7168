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

-- withdraws the tick st stored ahead if it is not due yet (waiting, never handed out); true if it did
local function withdraw(name, st, now)
  if not st.last or st.last <= now then
    return false
  end
  local id = redis.call('HGET', K_SCHEDULES, name .. ' tick')
  if not id or redis.call('ZREM', K_READY, id) == 0 then
    return false
  end
  redis.call('HDEL', K_BODY, id)
  redis.call('HDEL', K_ATT, id)
  return true
end
