-- Hand a wake-up back: a consumer that took one off the signal list and stops waiting before it
-- claimed at its time pushes it again, so that another consumer claims then
-- (docs/wake-up-protocol.md). As any wake-up, an earlier one already on the list stands.
-- ARGV[1] the time it names (ms, the server's clock). Returns 1.
--- @include "wake"
local K_SIGNAL = KEYS[1]
wake(tonumber(ARGV[1]))
return 1
