-- At-least-once upkeep, run by one consumer of each queue instance about once per block
-- timeout, and when a lease or retry it knows of falls due: promote due retries, start leases
-- for the envelopes in flight, return (or bury) those whose lease expired. Consumers block in
-- BLMOVE meanwhile, so nothing depends on a mover that must stay alive.
-- ARGV[1] lease ms, ARGV[2] max attempts, ARGV[3] dead-letter retention.
-- Returns {now, next event ms or -1, expired leases returned, expired leases dead-lettered,
--          elements still in 'claiming' for the next upkeep}.
-- Work: at most 1000 due retries, CLAIMING_STEP (1000) envelopes of 'claiming' and EXPIRED_STEP
-- (100) expired leases (includes/reap.lua), burials dropping at most TRIM_STEP more dead letters
-- than they add (includes/bury.lua); the caller runs it again while elements are left in
-- 'claiming', and the next upkeep, due at once, takes the expired leases left.
--- @include "upkeep"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_INFLIGHT, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_SEQ, K_HELD = KEYS[11], KEYS[12]
return {upkeep(tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))}
