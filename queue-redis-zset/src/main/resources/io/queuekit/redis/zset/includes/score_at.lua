-- The score for an id due at ms, behind those already due in that millisecond, and whether
-- nothing waits at or before ms (the id would be the first to fall due): one lookup gives both.
-- last, the highest score this caller gave in that millisecond, stands in for the lookup.
--- @include "ms_range"
--- @include "ordered_score"
local function score_at(ms, last)
  if last then
    return ordered_score(ms, {false, last}), false
  end
  local hi, lo = ms_range(ms)
  local before = redis.call('ZREVRANGEBYSCORE', K_READY, hi, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if not before[2] then
    return lo, true
  end
  if tonumber(before[2]) < lo then
    return lo, false
  end
  return ordered_score(ms, before), false
end
