-- Called by a storage wherever it stores a waiting message: marks the keys with their layout, so
-- that no other transport's script takes them for its own.
--- @include "storage"
--- @include "layout_marked"
local function mark_layout()
  if not layout_marked then
    redis.call('SET', K_LAYOUT, LAYOUT)
    layout_marked = true
  end
end
