-- Counts: {ready, in flight, delayed, dead}. Read-only.
check_layout()
local now = now_ms()
return {count_ready(now), redis.call('ZCARD', K_INFLIGHT), count_delayed(now), redis.call('ZCARD', K_DEAD)}
