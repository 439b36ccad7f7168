-- At-least-once ack: each delivery's envelope leaves 'claiming' and its lease is dropped.
-- Stands alone (no shared functions): it runs once per message or batch.
-- ARGV: pairs of envelope, id (one pair for Delivery.ack, several for MessageQueue.ackAll).
-- Returns how many were acked; one no longer in flight (its lease expired and it was returned)
-- is skipped.
local K_CLAIMING, K_INFLIGHT = KEYS[1], KEYS[2]
local acked = 0
for i = 1, #ARGV, 2 do
  if redis.call('LREM', K_CLAIMING, -1, ARGV[i]) == 1 then
    redis.call('ZREM', K_INFLIGHT, ARGV[i + 1])
    acked = acked + 1
  end
end
return acked
