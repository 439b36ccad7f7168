-- Create consumer group ARGV[1] reading after stream id ARGV[2] ('$': the end); ARGV[3] 'end',
-- 'beginning' or 'id', for the lag's counter (read_from). An existing group is left as it stands.
-- Returns 1 if it created the group, 0 if it existed. Work: a few commands.
--- @include "check_layout"
--- @include "mark_layout"
--- @include "read_from"
local K_LAYOUT, K_READY, K_DELAYED, K_COUNTS = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
check_layout()
mark_layout()
local created = redis.pcall('XGROUP', 'CREATE', K_READY, ARGV[1], ARGV[2], 'MKSTREAM')
if type(created) == 'table' and created.err then
  if string.find(created.err, 'BUSYGROUP', 1, true) then
    return 0
  end
  return error(created.err)
end
read_from(ARGV[1], ARGV[3])
return 1
