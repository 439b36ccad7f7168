-- A message ready again as the attempt after att: its envelope pushed behind those waiting.
--- @include "mark_layout"
--- @include "int"
local function ready_again(id, now, att, enq, payload)
  mark_layout()
  redis.call('LPUSH', K_READY, id .. ' ' .. int(att + 1) .. ' ' .. enq .. ' ' .. payload)
end
