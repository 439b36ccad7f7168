-- The dead letter ARGV[1]: {dead at ms, attempts, reason, body}, or {} if no dead letter has that
-- id. Read-only. Both queues run it. Work: a few commands on one id.
--- @include "check_layout"
--- @include "dead_letter"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_DEAD, K_ATT, K_REASON, K_BODY = KEYS[6], KEYS[7], KEYS[8], KEYS[9]
check_layout()
local id = ARGV[1]
local score = redis.call('ZSCORE', K_DEAD, id)
if not score then
  return {}
end
return dead_letter({}, id, score)
