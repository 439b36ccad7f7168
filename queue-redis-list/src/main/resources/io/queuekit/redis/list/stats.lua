-- Counts of the list queue: {ready, in flight, delayed, dead}, as of now: a retry that fell due
-- and an envelope whose lease expired count as ready, as the next upkeep makes them. Read-only;
-- stands alone.
-- KEYS[1] ready, KEYS[2] claiming, KEYS[3] delayed, KEYS[4] dead, KEYS[5] inflight.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = redis.call('ZCOUNT', KEYS[3], '-inf', now)
local expired = redis.call('ZCOUNT', KEYS[5], '-inf', now)
local inflight = math.max(0, redis.call('LLEN', KEYS[2]) - expired)
return {redis.call('LLEN', KEYS[1]) + due + expired, inflight, redis.call('ZCARD', KEYS[3]) - due,
  redis.call('ZCARD', KEYS[4])}
