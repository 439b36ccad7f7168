--- @include "outer"
--- @include "nowhere"
local K_ANY = KEYS[1]
return 1
