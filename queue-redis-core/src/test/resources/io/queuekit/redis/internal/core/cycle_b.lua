--- @include "inner"
--- @include "cycle_a"
local function cycle_b()
  return cycle_a()
end
