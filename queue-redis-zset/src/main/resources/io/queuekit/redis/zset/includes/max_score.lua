-- the highest score of a message due by now
--- @include "scores"
local function max_score(now)
  return (now - EPOCH) * TIE + (TIE - 1)
end
