-- Counts of the list queue: {ready, in flight, delayed, dead, paused (1 or 0)}, as of now: a retry
-- that fell due and an envelope whose lease expired count as ready, as the next upkeep makes them.
-- Read-only.
-- Work: counting commands (LLEN, HLEN, ZCOUNT, ZCARD), whatever the sizes.
--- @include "now_ms"
local K_READY, K_CLAIMING, K_DELAYED, K_DEAD, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_HELD, K_PAUSED = KEYS[6], KEYS[7]
local now = now_ms()
local due = redis.call('ZCOUNT', K_DELAYED, '-inf', now)
local expired = redis.call('ZCOUNT', K_INFLIGHT, '-inf', now)
local inflight = math.max(0, redis.call('LLEN', K_CLAIMING) + redis.call('HLEN', K_HELD) - expired)
return {redis.call('LLEN', K_READY) + due + expired, inflight, redis.call('ZCARD', K_DELAYED) - due,
  redis.call('ZCARD', K_DEAD), redis.call('EXISTS', K_PAUSED)}
