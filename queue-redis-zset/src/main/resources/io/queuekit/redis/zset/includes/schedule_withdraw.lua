-- withdraws the tick st stored ahead if it is not due yet and still waiting; true if it did
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
