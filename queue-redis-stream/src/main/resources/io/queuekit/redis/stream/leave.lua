-- Consumer ARGV[2] of group ARGV[1] leaves: it is deleted from the group if it holds no pending
-- entry (a later claim of the same name makes it again), so that closed objects do not pile up
-- in XINFO CONSUMERS. Returns 1 if it was deleted. Work: one XPENDING of one entry.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_DELAYED = KEYS[1], KEYS[2], KEYS[3]
check_layout()
if redis.call('EXISTS', K_READY) == 0 then
  return 0
end
local held = redis.pcall('XPENDING', K_READY, ARGV[1], '-', '+', 1, ARGV[2])
if type(held) ~= 'table' or held.err or held[1] then
  return 0 -- no such group any more, or it holds entries: they keep its name
end
redis.call('XGROUP', 'DELCONSUMER', K_READY, ARGV[1], ARGV[2])
return 1
