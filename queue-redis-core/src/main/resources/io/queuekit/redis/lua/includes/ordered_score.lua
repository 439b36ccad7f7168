-- the next score for ms, given the highest one already used in its range (a WITHSCORES reply)
--- @include "scores"
local function ordered_score(ms, highest)
  local base = (ms - EPOCH) * TIE
  if highest[2] then
    return base + math.min(tonumber(highest[2]) - base + 1, TIE - 1)
  end
  return base
end
