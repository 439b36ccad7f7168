-- Move a message to the dead letters. ARGV[1] id, ARGV[2] attempt, ARGV[3] reason,
-- ARGV[4] retention. Returns 1, or 0 if that delivery no longer owns the message.
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
redis.call('ZREM', K_INFLIGHT, id)
bury(id, ARGV[3], now_ms(), tonumber(ARGV[4]))
return 1
