-- How many dead letters there are: one ZCARD. No ARGV. Read-only. Both queues run it.
-- A message in flight whose lease expired on its last attempt is not one until a claim or an
-- upkeep buries it.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD = KEYS[6]
check_layout()
return redis.call('ZCARD', K_DEAD)
