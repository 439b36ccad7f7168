-- At-least-once batch claim: up to n envelopes from the head of 'ready' straight into flight,
-- held by id with their leases started, in one atomic step. An element that is not an envelope
-- goes to 'claiming', where the upkeep buries it.
-- ARGV[1] n, ARGV[2] lease ms. Returns the elements, oldest first. Work: n elements.
--- @include "parse_envelope"
--- @include "hold"
--- @include "now_ms"
--- @include "slices"
local K_READY, K_CLAIMING, K_HELD, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local taken = redis.call('RPOP', K_READY, tonumber(ARGV[1]))
if not taken then
  return {}
end
local envelopes, foreign = {}, {}
for _, e in ipairs(taken) do
  if parse_envelope(e) then
    envelopes[#envelopes + 1] = e
  else
    foreign[#foreign + 1] = e
  end
end
hold(envelopes, now_ms(), tonumber(ARGV[2]))
for _, part in ipairs(slices(foreign)) do
  redis.call('LPUSH', K_CLAIMING, unpack(part))
end
return taken
