-- At-least-once batch take: up to n envelopes from the head of 'ready' into 'claiming', in one
-- atomic step (their leases start at the next sweep). Stands alone.
-- ARGV[1] n. Returns the envelopes, oldest first.
local K_READY, K_CLAIMING = KEYS[1], KEYS[2]
local taken = redis.call('RPOP', K_READY, tonumber(ARGV[1]))
if not taken then
  return {}
end
for i = 1, #taken, 1000 do
  redis.call('LPUSH', K_CLAIMING, unpack(taken, i, math.min(i + 999, #taken)))
end
return taken
