-- At-least-once batch claim: up to n envelopes from the head of 'ready' straight into flight,
-- held by id with their leases started, in one atomic step. An element that is not an envelope
-- goes to 'claiming', where the upkeep buries it.
-- First it acks what the caller finished, as ack.lua does (a managed consumer's finished
-- deliveries travel with its next claim).
-- Takes nothing while the queue is paused (KEYS[5] exists; docs/pausing.md), after the acks.
-- ARGV[1] n, ARGV[2] lease ms, ARGV[3..] pairs of envelope, id to ack first (none for a plain
-- claim). Returns {acked, paused (1 or 0), element1, element2, ...}, the elements oldest first.
-- Work: the acks passed and n elements.
--- @include "parse_envelope"
--- @include "hold"
--- @include "unhold"
--- @include "now_ms"
--- @include "slices"
local K_READY, K_CLAIMING, K_HELD, K_INFLIGHT, K_PAUSED = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local acked = 0
for i = 3, #ARGV, 2 do
  if unhold(ARGV[i], ARGV[i + 1]) then
    acked = acked + 1
  end
end
if redis.call('EXISTS', K_PAUSED) == 1 then
  return {acked, 1}
end
local taken = redis.call('RPOP', K_READY, tonumber(ARGV[1]))
if not taken then
  return {acked, 0}
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
table.insert(taken, 1, 0)
table.insert(taken, 1, acked)
return taken
