-- At-least-once ack: the delivery's envelope leaves 'claiming' and its lease is dropped.
-- Stands alone (no shared functions): it runs once per message.
-- KEYS[1] claiming, KEYS[2] inflight. ARGV[1] the envelope, ARGV[2] its id.
-- Returns 1, or 0 if it was no longer in flight (its lease expired and it was returned).
if redis.call('LREM', KEYS[1], -1, ARGV[1]) == 0 then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
