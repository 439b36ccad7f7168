-- Move a message to the dead letters. ARGV[1] id, ARGV[2] fencing token, ARGV[3] reason,
-- ARGV[4] retention. Returns 1, or 0 if that delivery no longer owns the message.
-- Work: one burial, and at most TRIM_STEP + 1 dead letters over the retention dropped (bury in
-- includes/bury.lua).
--- @include "check_layout"
--- @include "now_ms"
--- @include "owns"
--- @include "unlease"
--- @include "bury"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_DEAD, K_REASON, K_BODY, K_ATT = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
check_layout()
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
unlease(id)
bury(id, ARGV[3], now_ms(), tonumber(ARGV[4]))
return 1
