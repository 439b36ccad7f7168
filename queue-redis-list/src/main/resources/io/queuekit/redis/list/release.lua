-- Give back an envelope a blocked consumer took for a caller that can no longer take it
-- (interrupted, or its queue closed): back to the head of 'ready', as it was.
-- ARGV[1] the envelope, ARGV[2] its id. Returns 1, or 0 if it was no longer in flight.
-- Work: one unhold (ack.lua's, for one envelope) and one RPUSH.
--- @include "unhold"
local K_CLAIMING, K_INFLIGHT, K_HELD, K_READY = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if not unhold(ARGV[1], ARGV[2]) then
  return 0
end
redis.call('RPUSH', K_READY, ARGV[1])
return 1
