-- Every operation starts here, before it writes anything: the keys must be this transport's
-- (a queue opened as the wrong type, say by an operator's tool, fails without a trace instead
-- of turning its keys into another layout). Keys marked with this layout need no more checks:
-- every write of the other transport checks the mark first (the list queue's plain LPUSH too,
-- before an object's first send), so one GET is all an operation pays. Every script that runs
-- it declares the keys check_types reads (docs/redis-scripts.md).
--- @include "storage"
--- @include "check_types"
--- @include "layout_marked"
local function check_layout()
  local layout = redis.call('GET', K_LAYOUT)
  if layout and layout ~= LAYOUT then
    return error('queuekit: ' .. K_LAYOUT .. ' says these are the keys of a ' .. layout
        .. ' queue, not a ' .. LAYOUT .. ' queue; open it as a ' .. layout .. ' queue')
  end
  layout_marked = layout == LAYOUT
  if not layout_marked then
    check_types()
  end
end
