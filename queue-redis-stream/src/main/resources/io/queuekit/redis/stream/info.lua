-- Group ARGV[1]'s counts, read-only: {exists 0/1, lag or -1, ready again (retries that fell due,
-- leases that expired), in flight (leases that have not), retries not yet due, dead letters,
-- paused 0/1, missed}. The lag is the server's (7.0+) where it knows it,
-- else entries added minus those the group read (counts), else -1.
-- Work: the topic's groups (XINFO GROUPS), and a few counting commands.
--- @include "check_layout"
--- @include "now_ms"
--- @include "group_info"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_PAUSED, K_COUNTS, K_MISSED = KEYS[6], KEYS[7], KEYS[8]
check_layout()
local group = ARGV[1]
local now = now_ms()
local g = group_info(group)
local lag = -1
if g and g['lag'] then
  lag = g['lag']
else
  local read = redis.call('HGET', K_COUNTS, 'r:' .. group)
  if g and read then
    lag = math.max(0, tonumber(redis.call('HGET', K_COUNTS, 'added') or 0) - tonumber(read))
  end
end
return {
  g and 1 or 0,
  lag,
  redis.call('ZCOUNT', K_DELAYED, '-inf', now) + redis.call('ZCOUNT', K_INFLIGHT, '-inf', now),
  redis.call('ZCOUNT', K_INFLIGHT, '(' .. now, '+inf'),
  redis.call('ZCOUNT', K_DELAYED, '(' .. now, '+inf'),
  redis.call('ZCARD', K_DEAD),
  redis.call('EXISTS', K_PAUSED),
  tonumber(redis.call('HGET', K_MISSED, group) or 0)
}
