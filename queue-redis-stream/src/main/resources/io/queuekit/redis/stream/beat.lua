-- Subscriptions' heartbeats: renews the beat in 'subs' (server ms, by group name; create.lua adds
-- it) of the live subscriptions' groups ARGV[3], ARGV[4], ... (a name no longer there stays
-- out: its group was deleted), then finds at most ARGV[2] groups whose beat is older than ARGV[1]
-- ms: groups their process left behind. Returns {cutoff ms, name, name, ...}; the caller deletes
-- each with delete.lua, which checks the beat, and 'resumed', again against the cutoff.
-- Outages: the server's clock runs on while nobody reaches it, so after an outage, a restart or a
-- failover every beat is old. Each call records when it ran ('pass' in 'counts'); a call that
-- finds no call ran for over half of ARGV[1] records 'resumed' (now) there. A group counts as
-- expired only if now - max(its beat, resumed) > ARGV[1]: after any gap in the passes, every
-- process has a full ARGV[1] to renew before anything is reclaimed. A gap of at most half of
-- ARGV[1] leaves a beat renewed an interval before it under ARGV[1] old while its process renews
-- again (intervals under a quarter of ARGV[1]).
-- Work: one ZADD per name renewed, HGET/HSET of two fields, and a ZRANGEBYSCORE of at most ARGV[2].
--- @include "check_layout"
--- @include "now_ms"
local K_LAYOUT, K_READY, K_DELAYED, K_SUBS, K_COUNTS = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
local now = now_ms()
local expiry = tonumber(ARGV[1])
for i = 3, #ARGV do
  redis.call('ZADD', K_SUBS, 'XX', now, ARGV[i])
end
local last = tonumber(redis.call('HGET', K_COUNTS, 'pass') or 0)
redis.call('HSET', K_COUNTS, 'pass', now)
if now - last > expiry / 2 then
  redis.call('HSET', K_COUNTS, 'resumed', now)
end
local cutoff = now - expiry
local out = {cutoff}
if tonumber(redis.call('HGET', K_COUNTS, 'resumed') or 0) >= cutoff then
  return out -- passes resumed under ARGV[1] ago: every beat has had less than that to be renewed
end
for _, name in ipairs(redis.call('ZRANGEBYSCORE', K_SUBS, '-inf', '(' .. cutoff, 'LIMIT', 0, tonumber(ARGV[2]))) do
  out[#out + 1] = name
end
return out
