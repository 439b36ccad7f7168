-- Cancel a message that waits for its due time or is ready (a retried or returned message
-- waits again too) and delete it. O(log n).
-- ARGV[1] id.
-- Returns 1 if removed; 0 if no such message waits (never stored, in flight, acked or dead).
check_layout()
local id = ARGV[1]
if not remove_waiting(id) then
  return 0
end
redis.call('HDEL', K_BODY, id)
redis.call('HDEL', K_ATT, id)
return 1
