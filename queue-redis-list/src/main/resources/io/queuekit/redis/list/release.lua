-- Give back an envelope a blocked consumer moved to 'claiming' for a caller that can no longer
-- take it (interrupted, or its queue closed): back to the head of 'ready', as it was. Stands alone.
-- ARGV[1] the envelope, ARGV[2] its id. Returns 1, or 0 if it was no longer in 'claiming'.
local K_CLAIMING, K_INFLIGHT, K_READY = KEYS[1], KEYS[2], KEYS[3]
if redis.call('LREM', K_CLAIMING, 1, ARGV[1]) == 0 then
  return 0
end
redis.call('ZREM', K_INFLIGHT, ARGV[2])
redis.call('RPUSH', K_READY, ARGV[1])
return 1
