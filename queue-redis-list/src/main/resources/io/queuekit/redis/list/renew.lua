-- Extend the lease of an envelope in flight to end ARGV[3] ms from now on the server's clock
-- (plus the millisecond its truncated clock may lag; starting it if the upkeep has not yet).
-- ARGV[1] the envelope, ARGV[2] its id, ARGV[3] ms.
-- Returns 1, or 0 if the envelope is no longer in flight (settled, or returned after its lease).
-- Work: an HGET of 'held', or an LPOS of 'claiming' (only what was taken alone since the last
-- upkeep), and one ZADD.
--- @include "now_ms"
local K_CLAIMING, K_INFLIGHT, K_HELD = KEYS[1], KEYS[2], KEYS[3]
if redis.call('HGET', K_HELD, ARGV[2]) ~= ARGV[1] and not redis.call('LPOS', K_CLAIMING, ARGV[1]) then
  return 0
end
redis.call('ZADD', K_INFLIGHT, now_ms() + tonumber(ARGV[3]) + 1, ARGV[2])
return 1
