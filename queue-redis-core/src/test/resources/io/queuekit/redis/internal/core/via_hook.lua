--- @include "hook"
local function via_hook()
  return hook()
end
