-- Cancel a message that waits for its due time or is ready (a retried or returned message
-- waits again too, as does one whose lease expired, unless that was its last attempt) and
-- delete it. Work: a few commands on one id (O(log n) each), and if its lease expired on its last
-- attempt, one burial (includes/bury.lua).
-- ARGV[1] id, ARGV[2] max attempts, ARGV[3] dead-letter retention.
-- Returns 1 if removed; 0 if no such message waits (never stored, in flight, acked or dead).
--- @include "check_layout"
--- @include "now_ms"
--- @include "reap_one"
--- @include "remove_waiting"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_SIGNAL = KEYS[11]
check_layout()
local id = ARGV[1]
local now = now_ms()
local deadline = redis.call('ZSCORE', K_INFLIGHT, id)
if deadline and tonumber(deadline) <= now then
  reap_one(id, now, tonumber(ARGV[2]), tonumber(ARGV[3]))
end
if not remove_waiting(id) then
  return 0
end
redis.call('HDEL', K_BODY, id)
redis.call('HDEL', K_ATT, id)
return 1
