-- At-least-once batch take: up to n envelopes from the head of 'ready' into 'claiming', in one
-- atomic step (their leases start at the next sweep). Stands alone.
-- KEYS[1] ready, KEYS[2] claiming. ARGV[1] n. Returns the envelopes, oldest first.
local taken = redis.call('RPOP', KEYS[1], tonumber(ARGV[1]))
if not taken then
  return {}
end
for i = 1, #taken, 1000 do
  redis.call('LPUSH', KEYS[2], unpack(taken, i, math.min(i + 999, #taken)))
end
return taken
