-- Wakes one blocked consumer for the time at (ms): at once if that is now or past. A pending
-- signal for an earlier time stands: it wakes a consumer sooner (one that is not a number, as an
-- older version pushed, means now). A later one is overwritten in place: while a signal is
-- pending no consumer is blocked on the list, so there is no one to wake; the list holds one
-- signal at most.
--- @include "int"
local function wake(at)
  local pending = redis.call('LINDEX', K_SIGNAL, 0)
  if not pending then
    redis.call('LPUSH', K_SIGNAL, int(at))
  elseif (tonumber(pending) or 0) > at then
    redis.call('LSET', K_SIGNAL, 0, int(at))
  end
end
