-- Ack hand-outs of consumer ARGV[2] in group ARGV[1]: ARGV[3], ARGV[4], ... pairs of stream id
-- and delivery count. Returns how many were acked; a hand-out whose lease expired, or that a
-- later claim took over, is skipped. Work: a few commands per pair.
--- @include "check_layout"
--- @include "now_ms"
--- @include "ack_pairs"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
return ack_pairs(1, now_ms())
