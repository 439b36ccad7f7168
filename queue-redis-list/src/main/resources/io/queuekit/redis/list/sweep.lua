-- At-least-once upkeep, run by one consumer of each queue instance about once per block
-- timeout, and when a lease or retry it knows of falls due: promote due retries, start leases
-- for the envelopes in flight, return (or bury) those whose lease expired. Consumers block in
-- BLMOVE meanwhile, so nothing depends on a mover that must stay alive.
-- ARGV[1] lease ms, ARGV[2] max attempts, ARGV[3] dead-letter retention.
-- Returns {now, next event ms or -1, expired leases returned, expired leases dead-lettered}.
check_layout()
mark_layout()
local now = now_ms()
promote(now)
local returned, buried = sweep(now, tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return {now, next_event(now), returned, buried}
