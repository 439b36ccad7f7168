-- make a message stored by id (body and attempts) ready now, behind those waiting
--- @include "push_delayed"
local function push_ready(id, now)
  push_delayed(id, now, now)
end
