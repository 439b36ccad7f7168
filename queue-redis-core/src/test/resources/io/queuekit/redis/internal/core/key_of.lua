--- @include "prefix"
local function key_of(id)
  return PREFIX .. id
end
