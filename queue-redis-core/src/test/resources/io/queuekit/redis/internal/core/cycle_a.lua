--- @include "cycle_b"
local function cycle_a()
  return cycle_b()
end
