-- Extend the lease of an envelope in flight to end ARGV[3] ms from now on the server's clock
-- (starting it if the upkeep has not yet). Stands alone. ARGV[1] the envelope, ARGV[2] its id,
-- ARGV[3] ms.
-- Returns 1, or 0 if the envelope is no longer in flight (settled, or returned after its lease).
local K_CLAIMING, K_INFLIGHT = KEYS[1], KEYS[2]
if not redis.call('LPOS', K_CLAIMING, ARGV[1]) then
  return 0
end
local t = redis.call('TIME')
redis.call('ZADD', K_INFLIGHT, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[3]), ARGV[2])
return 1
