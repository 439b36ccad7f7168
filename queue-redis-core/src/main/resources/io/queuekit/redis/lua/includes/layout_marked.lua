-- Whether this call found the keys marked with this layout (check_layout) or marked them
-- (mark_layout): then neither looks again.
local layout_marked = false
