--- @include "nowhere"
local function needs_nowhere()
  return nowhere()
end
