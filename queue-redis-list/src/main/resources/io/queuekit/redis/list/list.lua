-- Storage of the list queue: ready ids in a LIST (pushed on the left, taken from the right),
-- retries waiting for their delay in the 'delayed' ZSET scored by due ms.

push_ready = function(id, now)
  redis.call('LPUSH', K_READY, id)
end

push_delayed = function(id, due, now)
  redis.call('ZADD', K_DELAYED, due, id)
end

pop_ready = function(n, now)
  local ids = redis.call('RPOP', K_READY, n)
  if not ids then
    return {}
  end
  return ids
end

remove_waiting = function(id)
  if redis.call('ZREM', K_DELAYED, id) == 1 then
    return true
  end
  return redis.call('LREM', K_READY, 1, id) == 1
end

count_ready = function(now)
  return redis.call('LLEN', K_READY)
end

count_delayed = function(now)
  return redis.call('ZCARD', K_DELAYED)
end

next_due = function(now)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
  if first[2] then
    return tonumber(first[2])
  end
  return -1
end

promote = function(now)
  local due = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, 1000)
  for _, id in ipairs(due) do
    redis.call('ZREM', K_DELAYED, id)
    redis.call('LPUSH', K_READY, id)
  end
end

after_claim = function(now)
end
