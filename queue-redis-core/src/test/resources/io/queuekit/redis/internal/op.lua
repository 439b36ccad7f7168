-- ARGV[1] id. Returns its body.
--- @include "body_of"
--- @include "key_of"
local K_LAYOUT, K_BODY = KEYS[1], KEYS[2]
local K_DEAD = KEYS[3]
return body_of(ARGV[1])
