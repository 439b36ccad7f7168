-- What a dead letter keeps by id of a message an envelope carried: its body
-- "<enqueued ms>:<payload>" and its attempts.
local function store_dead(id, att, enq, payload)
  redis.call('HSET', K_BODY, id, enq .. ':' .. payload)
  redis.call('HSET', K_ATT, id, att)
end
