-- Subscriptions' heartbeats: renews the beat in 'subs' (server ms, by group name; create.lua adds
-- it) of the live subscriptions' groups ARGV[3], ARGV[4], ... (a name no longer there stays
-- out: its group was deleted), then finds at most ARGV[2] groups whose beat is older than ARGV[1]
-- ms: groups their process left behind. Returns {cutoff ms, name, name, ...}; the caller deletes
-- each with delete.lua, which checks the beat again against the cutoff.
-- Work: one ZADD per name renewed, and a ZRANGEBYSCORE of at most ARGV[2].
--- @include "check_layout"
--- @include "now_ms"
local K_LAYOUT, K_READY, K_DELAYED, K_SUBS = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
local now = now_ms()
for i = 3, #ARGV do
  redis.call('ZADD', K_SUBS, 'XX', now, ARGV[i])
end
local cutoff = now - tonumber(ARGV[1])
local out = {cutoff}
for _, name in ipairs(redis.call('ZRANGEBYSCORE', K_SUBS, '-inf', '(' .. cutoff, 'LIMIT', 0, tonumber(ARGV[2]))) do
  out[#out + 1] = name
end
return out
