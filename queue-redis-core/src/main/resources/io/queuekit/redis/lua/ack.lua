-- Delete a message its current delivery finished. ARGV[1] id, ARGV[2] attempt.
-- Returns 1, or 0 if that delivery no longer owns the message.
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
redis.call('ZREM', K_INFLIGHT, id)
redis.call('HDEL', K_BODY, id)
redis.call('HDEL', K_ATT, id)
return 1
