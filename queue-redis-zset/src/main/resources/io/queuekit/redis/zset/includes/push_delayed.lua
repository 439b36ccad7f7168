-- make id ready at due (ms)
--- @include "mark_layout"
--- @include "score_at"
--- @include "wake"
local function push_delayed(id, due, now)
  mark_layout()
  local s, first = score_at(due, nil)
  redis.call('ZADD', K_READY, s, id)
  if due <= now or first then
    wake(due)
  end
end
