-- remove id if it waits (due or not); true if it did
local function remove_waiting(id)
  return redis.call('ZREM', K_READY, id) == 1
end
