-- a message whose lease expired waits again, ready now; its body and attempts stay by id
--- @include "push_ready"
local ready_again = push_ready
