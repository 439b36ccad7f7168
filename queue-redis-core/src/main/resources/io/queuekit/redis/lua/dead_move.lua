-- Requeue or delete dead letters.
-- ARGV[1] 'requeue' or 'purge'; ARGV[2] 'one' with ARGV[3] an id, or 'oldest' with ARGV[3] a
-- count (the caller repeats until 0, so one call never runs long). Work: one dead letter, or
-- ARGV[3] of them.
-- Returns how many were moved. Both queues run it; a requeued message is made ready by the
-- storage's push_ready.
--- @include "check_layout"
--- @include "now_ms"
--- @include "push_ready"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD, K_REASON, K_ATT, K_BODY, K_SIGNAL = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
check_layout()
local now = now_ms()
local ids
if ARGV[2] == 'one' then
  ids = {ARGV[3]}
else
  ids = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[3]) - 1)
end
local moved = 0
for _, id in ipairs(ids) do
  if redis.call('ZREM', K_DEAD, id) == 1 then
    redis.call('HDEL', K_REASON, id)
    redis.call('HDEL', K_ATT, id)
    if ARGV[1] == 'requeue' and redis.call('HEXISTS', K_BODY, id) == 1 then
      push_ready(id, now)
    else
      redis.call('HDEL', K_BODY, id)
    end
    moved = moved + 1
  end
end
return moved
