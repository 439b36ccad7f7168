-- Requeue a dead letter of this group (body and attempts by id): a new stream entry addressed to
-- this group alone, carrying the message's id and enqueue ms, so that it comes back to this group
-- as attempt 1 with its id. The group's name is read from its dead-letter key, which ends in
-- ':g:<group>:dead' (a name, never used to build a key).
local function push_ready(id, now)
  local body = redis.call('HGET', K_BODY, id)
  redis.call('HDEL', K_BODY, id)
  local colon = string.find(body, ':', 1, true) or 0
  local group = string.match(K_DEAD, ':g:([^:]+):dead$')
  local enq = colon > 1 and string.sub(body, 1, colon - 1) or tostring(now)
  redis.call('XADD', K_READY, '*', 'b', string.sub(body, colon + 1), 'g', group, 'i', id, 'e', enq)
end
