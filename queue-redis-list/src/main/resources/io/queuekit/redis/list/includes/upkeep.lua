-- The list queue's upkeep, as both modes run it (reap.lua, and claim_at_most_once.lua before its
-- pop): checks and marks the layout, promotes due retries and reaps (includes/reap.lua). Returns
-- the server's now, the next event (next_event.lua) and reap's three counts.
--- @include "check_layout"
--- @include "mark_layout"
--- @include "now_ms"
--- @include "promote"
--- @include "reap"
--- @include "next_event"
local function upkeep(lease_ms, max_attempts, retention)
  check_layout()
  mark_layout()
  local now = now_ms()
  promote(now)
  local returned, buried, left = reap(now, lease_ms, max_attempts, retention)
  return now, next_event(now), returned, buried, left
end
