-- Move a message to the dead letters. ARGV[1] id, ARGV[2] fencing token, ARGV[3] reason,
-- ARGV[4] retention. Returns 1, or 0 if that delivery no longer owns the message.
check_layout()
local id = ARGV[1]
if not owns(id, ARGV[2]) then
  return 0
end
unlease(id)
bury(id, ARGV[3], now_ms(), tonumber(ARGV[4]))
return 1
