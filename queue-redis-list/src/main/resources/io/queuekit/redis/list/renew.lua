-- Extend the lease of an envelope in flight to end ARGV[3] ms from now on the server's clock
-- (starting it if the upkeep has not yet). Stands alone.
-- KEYS[1] claiming, KEYS[2] inflight. ARGV[1] the envelope, ARGV[2] its id, ARGV[3] ms.
-- Returns 1, or 0 if the envelope is no longer in flight (settled, or returned after its lease).
if not redis.call('LPOS', KEYS[1], ARGV[1]) then
  return 0
end
local t = redis.call('TIME')
redis.call('ZADD', KEYS[2], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[3]), ARGV[2])
return 1
