-- Dead-letter a delivery, in either mode: the message is stored the core way (body and attempts
-- by id) and buried, so that listing, requeue and purge work the same for both.
-- ARGV[1] the delivery's envelope in flight (at-least-once), or '' (at-most-once: it left
-- Redis when popped); ARGV[2] id, ARGV[3] attempts, ARGV[4] body "<enqueued ms>:<payload>",
-- ARGV[5] reason, ARGV[6] retention.
-- Returns 1, or 0 if the envelope was no longer in flight (its lease expired and it was returned).
-- Work: one burial, and at most TRIM_STEP + 1 dead letters over the retention dropped (bury in
-- includes/bury.lua).
--- @include "check_layout"
--- @include "mark_layout"
--- @include "unhold"
--- @include "bury"
--- @include "now_ms"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_INFLIGHT, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_HELD = KEYS[11]
check_layout()
mark_layout()
local id = ARGV[2]
if ARGV[1] ~= '' and not unhold(ARGV[1], id) then
  return 0
end
redis.call('HSET', K_BODY, id, ARGV[4])
redis.call('HSET', K_ATT, id, ARGV[3])
bury(id, ARGV[5], now_ms(), tonumber(ARGV[6]))
return 1
