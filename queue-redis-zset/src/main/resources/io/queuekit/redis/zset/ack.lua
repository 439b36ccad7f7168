-- Delete messages their current deliveries finished.
-- ARGV: pairs of id, fencing token (one pair for Delivery.ack, several for MessageQueue.ackAll).
-- Returns how many were deleted; a delivery that no longer owns its message is skipped.
-- Work: a few commands per pair, one ZMSCORE and one HMGET per 1000.
--- @include "check_layout"
--- @include "now_ms"
--- @include "ack_pairs"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_BODY, K_ATT = KEYS[6], KEYS[7], KEYS[8]
check_layout()
return ack_pairs(1, now_ms())
