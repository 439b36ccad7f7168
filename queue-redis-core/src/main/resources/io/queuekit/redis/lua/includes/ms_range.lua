-- the highest and lowest score of a millisecond (scores.lua)
--- @include "scores"
local function ms_range(ms)
  local base = (ms - EPOCH) * TIE
  return base + TIE - 1, base
end
