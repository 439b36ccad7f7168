--- @include "inner"
local function outer()
  return inner() .. ' through outer'
end
