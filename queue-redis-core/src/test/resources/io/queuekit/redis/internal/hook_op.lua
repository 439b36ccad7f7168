-- A script of the core that calls what each transport defines.
--- @include "via_hook"
local K_ANY = KEYS[1]
return via_hook()
