-- At-least-once ack: each delivery's envelope leaves flight and its lease is dropped.
-- Work: per pair an HGET of 'held', or for an envelope not there an LREM of 'claiming', which
-- holds only what was taken alone since the last upkeep (see includes/unhold.lua); never a scan of
-- what is in flight.
-- ARGV: pairs of envelope, id (one pair for Delivery.ack, several for MessageQueue.ackAll).
-- Returns how many were acked; one no longer in flight (its lease expired and it was returned)
-- is skipped.
--- @include "unhold"
local K_CLAIMING, K_INFLIGHT, K_HELD = KEYS[1], KEYS[2], KEYS[3]
local acked = 0
for i = 1, #ARGV, 2 do
  if unhold(ARGV[i], ARGV[i + 1]) then
    acked = acked + 1
  end
end
return acked
