-- At-most-once claim with upkeep, run instead of a plain RPOP about once per block timeout or
-- when a retry this queue made falls due: due retries become ready (behind the messages already
-- waiting), envelopes left in flight by at-least-once consumers of the same queue are reaped as
-- at-least-once consumers would, then up to n elements are taken from the head of 'ready',
-- none while the queue is paused (KEYS[13] exists; docs/pausing.md).
-- ARGV[1] n, ARGV[2] lease ms, ARGV[3] max attempts, ARGV[4] dead-letter retention.
-- Returns {now, next event ms or -1, paused (1 or 0), element1, element2, ...}.
-- Work: at most 1000 due retries, the upkeep's steps (as reap.lua) and n elements; the rest
-- waits for the next call.
--- @include "upkeep"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_INFLIGHT, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_SEQ, K_HELD, K_PAUSED = KEYS[11], KEYS[12], KEYS[13]
local now, next = upkeep(tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
if redis.call('EXISTS', K_PAUSED) == 1 then
  return {now, next, 1}
end
local out = {now, next, 0}
local popped = redis.call('RPOP', K_READY, tonumber(ARGV[1]))
if popped then
  for _, e in ipairs(popped) do
    out[#out + 1] = e
  end
end
return out
