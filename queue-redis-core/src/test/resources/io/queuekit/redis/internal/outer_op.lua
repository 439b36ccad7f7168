-- Returns what outer returns.
--- @include "outer"
local K_ANY = KEYS[1]
return outer()
