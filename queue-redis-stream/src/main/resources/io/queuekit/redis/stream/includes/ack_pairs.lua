-- Acks the hand-outs of consumer ARGV[from + 1] in group ARGV[from] named by ARGV[from + 2],
-- ARGV[from + 3], ... as pairs of stream id and delivery count, each only if it still holds its
-- entry (owns). Returns how many were acked; 0 if ARGV ends before from.
--- @include "owns"
local function ack_pairs(from, now)
  local n = 0
  local group, consumer = ARGV[from], ARGV[from + 1]
  for i = from + 2, #ARGV - 1, 2 do
    local sid = ARGV[i]
    if owns(group, consumer, sid, ARGV[i + 1], now) then
      redis.call('XACK', K_READY, group, sid)
      redis.call('ZREM', K_INFLIGHT, sid)
      n = n + 1
    end
  end
  return n
end
