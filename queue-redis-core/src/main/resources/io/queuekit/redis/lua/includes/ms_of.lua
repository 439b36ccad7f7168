-- the millisecond of an ordered score (scores.lua)
--- @include "scores"
local function ms_of(score)
  return math.floor(tonumber(score) / TIE) + EPOCH
end
