-- Counts: {ready, in flight, delayed, dead}, as of now: a message whose lease expired counts as
-- what the next claim makes of it (ready again, or dead at its last attempt). Read-only.
-- ARGV[1] max attempts.
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD, K_BODY, K_ATT = KEYS[6], KEYS[7], KEYS[8]
check_layout()
local now = now_ms()
local ready, inflight = count_ready(now), redis.call('ZCARD', K_INFLIGHT)
local dead = redis.call('ZCARD', K_DEAD)
local max_attempts = tonumber(ARGV[1])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now)) do
  inflight = inflight - 1
  if redis.call('HEXISTS', K_BODY, id) == 1 then
    if tonumber(redis.call('HGET', K_ATT, id) or '0') >= max_attempts then
      dead = dead + 1
    else
      ready = ready + 1
    end
  end
end
return {ready, inflight, count_delayed(now), dead}
