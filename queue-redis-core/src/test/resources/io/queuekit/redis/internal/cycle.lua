--- @include "inner"
--- @include "cycle_a"
local K_ANY = KEYS[1]
return 1
