-- Checks, before a queue object's first send (a plain LPUSH, which checks nothing), that the keys
-- are a list queue's, and records the layout. No ARGV. Returns 1. Work: a few commands on whole
-- keys (GET, TYPE, EXISTS, SET).
--- @include "check_layout"
--- @include "mark_layout"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
mark_layout()
return 1
