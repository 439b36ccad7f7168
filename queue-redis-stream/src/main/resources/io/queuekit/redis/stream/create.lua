-- Create consumer group ARGV[1] reading after stream id ARGV[2] ('$': the end); ARGV[3] 'end',
-- 'beginning' or 'id', for its lag and last-delivered id (read_from). An existing group is left
-- as it stands. A group marked as being deleted ('d:<group>' in counts, delete.lua) is refused
-- with an error, whether it exists or not: see delete.lua for why that keeps a sharded group on
-- every shard or on none. The topic's group count ('groups' in counts, where present) counts it; a
-- subscription's group ('~...') gets its heartbeat in 'subs' (server ms). A group it creates
-- inherits nothing from one of its name destroyed by other means than delete.lua (XGROUP DESTROY
-- by hand): read_from sets its 'l:' and 'r:' afresh, its 'missed' count is removed. Its own keys
-- (dead letters, pause) are left as they are: dead letters are messages, kept until handled.
-- Returns 1 if it created the group, 0 if it existed. Work: a few commands, and read_from's.
--- @include "check_layout"
--- @include "mark_layout"
--- @include "now_ms"
--- @include "read_from"
local K_LAYOUT, K_READY, K_DELAYED, K_COUNTS, K_SUBS = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_MISSED = KEYS[6]
check_layout()
if redis.call('HEXISTS', K_COUNTS, 'd:' .. ARGV[1]) == 1 then
  return error('queuekit: consumer group ' .. ARGV[1] .. ' of ' .. K_READY .. ' is being deleted: wait for'
    .. ' that deleteGroup, or call deleteGroup again if one stopped midway')
end
mark_layout()
local fresh = redis.call('EXISTS', K_READY) == 0
local created = redis.pcall('XGROUP', 'CREATE', K_READY, ARGV[1], ARGV[2], 'MKSTREAM')
if type(created) == 'table' and created.err then
  if string.find(created.err, 'BUSYGROUP', 1, true) then
    return 0
  end
  return error(created.err)
end
if fresh then
  redis.call('HSET', K_COUNTS, 'groups', 1) -- a new stream: this is its only group
elseif redis.call('HEXISTS', K_COUNTS, 'groups') == 1 then
  redis.call('HINCRBY', K_COUNTS, 'groups', 1)
end
read_from(ARGV[1], ARGV[2], ARGV[3])
redis.call('HDEL', K_MISSED, ARGV[1]) -- a group of its name destroyed by hand left it
if string.sub(ARGV[1], 1, 1) == '~' then
  redis.call('ZADD', K_SUBS, now_ms(), ARGV[1])
end
return 1
