-- Store a delivery again as its next attempt, now or after a delay on the server's clock. Stands
-- alone (no shared functions).
-- KEYS[1] claiming, KEYS[2] inflight, KEYS[3] ready, KEYS[4] delayed.
-- ARGV[1] the delivery's envelope in 'claiming' (at-least-once), or '' (at-most-once),
-- ARGV[2] id, ARGV[3] the envelope of the next attempt, ARGV[4] delay ms.
-- Returns 1, or 0 if the envelope was no longer in flight (its lease expired and it was returned).
if ARGV[1] ~= '' then
  if redis.call('LREM', KEYS[1], -1, ARGV[1]) == 0 then
    return 0
  end
  redis.call('ZREM', KEYS[2], ARGV[2])
end
local delay = tonumber(ARGV[4])
if delay > 0 then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[4], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + delay, ARGV[3])
else
  redis.call('LPUSH', KEYS[3], ARGV[3])
end
return 1
