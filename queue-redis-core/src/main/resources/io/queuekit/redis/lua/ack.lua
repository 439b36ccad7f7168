-- Delete messages their current deliveries finished.
-- ARGV: pairs of id, fencing token (one pair for Delivery.ack, several for MessageQueue.ackAll).
-- Returns how many were deleted; a delivery that no longer owns its message is skipped.
check_layout()
local acked = 0
for i = 1, #ARGV, 2 do
  local id = ARGV[i]
  if owns(id, ARGV[i + 1]) then
    unlease(id)
    redis.call('HDEL', K_BODY, id)
    redis.call('HDEL', K_ATT, id)
    acked = acked + 1
  end
end
return acked
