-- Store a delivery again as its next attempt, now or after a delay on the server's clock.
-- ARGV[1] the delivery's envelope in flight (at-least-once), or '' (at-most-once),
-- ARGV[2] id, ARGV[3] the envelope of the next attempt, ARGV[4] delay ms.
-- Returns 1, or 0 if the envelope was no longer in flight (its lease expired and it was returned).
-- Work: one unhold (ack.lua's, for one envelope) and one ZADD or LPUSH.
--- @include "unhold"
--- @include "now_ms"
local K_CLAIMING, K_INFLIGHT, K_HELD, K_READY, K_DELAYED = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if ARGV[1] ~= '' and not unhold(ARGV[1], ARGV[2]) then
  return 0
end
local delay = tonumber(ARGV[4])
if delay > 0 then
  redis.call('ZADD', K_DELAYED, now_ms() + delay, ARGV[3])
else
  redis.call('LPUSH', K_READY, ARGV[3])
end
return 1
