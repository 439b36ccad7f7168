--- @include inner
local K_ANY = KEYS[1]
return 1
