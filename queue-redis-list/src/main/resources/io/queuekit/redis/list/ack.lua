-- At-least-once ack: each delivery's envelope leaves 'claiming' and its lease is dropped.
-- Stands alone (no shared functions): it runs once per message or batch.
-- KEYS[1] claiming, KEYS[2] inflight. ARGV: pairs of envelope, id (one pair for Delivery.ack,
-- several for MessageQueue.ackAll).
-- Returns how many were acked; one no longer in flight (its lease expired and it was returned)
-- is skipped.
local acked = 0
for i = 1, #ARGV, 2 do
  if redis.call('LREM', KEYS[1], -1, ARGV[i]) == 1 then
    redis.call('ZREM', KEYS[2], ARGV[i + 1])
    acked = acked + 1
  end
end
return acked
