-- Counts: {ready, in flight, delayed, dead, paused (1 or 0)}, as of now. No ARGV. Read-only.
-- A message whose lease expired counts as ready, on its last attempt too, until a claim returns it
-- (or dead-letters it, on its last attempt): its lease is counted, not looked at, so that dead
-- counts the dead letters alone. Work: five counting commands (ZCOUNT, ZCARD) and an EXISTS, whatever the sizes.
--- @include "check_layout"
--- @include "now_ms"
--- @include "count_ready"
--- @include "count_delayed"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD, K_PAUSED = KEYS[6], KEYS[7]
check_layout()
local now = now_ms()
local expired = redis.call('ZCOUNT', K_INFLIGHT, '-inf', now)
return {count_ready(now) + expired, redis.call('ZCARD', K_INFLIGHT) - expired, count_delayed(now),
        redis.call('ZCARD', K_DEAD), redis.call('EXISTS', K_PAUSED)}
