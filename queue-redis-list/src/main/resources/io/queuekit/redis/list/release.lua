-- Give back an envelope a blocked consumer moved to 'claiming' for a caller that can no longer
-- take it (interrupted, or its queue closed): back to the head of 'ready', as it was. Stands alone.
-- KEYS[1] claiming, KEYS[2] inflight, KEYS[3] ready. ARGV[1] the envelope, ARGV[2] its id.
-- Returns 1, or 0 if it was no longer in 'claiming'.
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[1])
return 1
