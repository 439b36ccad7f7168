-- Move group ARGV[1] to read after stream id ARGV[2]; ARGV[3] as for create.lua (read_from records
-- the new id, and the lag where it can be counted). Its deliveries in flight stay in flight.
-- Returns 1, or 0 if the group does not exist. Work: a few commands, and read_from's.
--- @include "check_layout"
--- @include "read_from"
local K_LAYOUT, K_READY, K_DELAYED, K_COUNTS = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
local moved = redis.pcall('XGROUP', 'SETID', K_READY, ARGV[1], ARGV[2])
if type(moved) == 'table' and moved.err then
  if string.find(moved.err, 'NOGROUP', 1, true) then
    return 0
  end
  return error(moved.err)
end
read_from(ARGV[1], ARGV[2], ARGV[3])
return 1
