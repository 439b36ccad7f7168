-- push_delayed for many: ids[i] due at dues[i] (ms; one at or before now is due now), those due
-- in the same millisecond in the order given; one ZADD per 500 and one wake, with a score lookup
-- per distinct millisecond.
--- @include "mark_layout"
--- @include "score_at"
--- @include "slices"
--- @include "wake"
local function push_many(ids, dues, now)
  if #ids == 0 then
    return
  end
  mark_layout()
  local last, scored = {}, {}
  local wake_at
  for i, id in ipairs(ids) do
    local due = math.max(dues[i], now)
    local s, first = score_at(due, last[due])
    last[due] = s
    scored[#scored + 1] = s
    scored[#scored + 1] = id
    if (due <= now or first) and (not wake_at or due < wake_at) then
      wake_at = due
    end
  end
  for _, part in ipairs(slices(scored)) do
    redis.call('ZADD', K_READY, unpack(part))
  end
  if wake_at then
    wake(wake_at)
  end
end
