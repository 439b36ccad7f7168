-- The values of list in slices of at most 1000, for commands that take many values at once:
-- unpack of thousands of values exceeds Lua's stack.
local function slices(list)
  if #list == 0 then
    return {}
  elseif #list <= 1000 then
    return {list} -- the common case: no copy
  end
  local out = {}
  for i = 1, #list, 1000 do
    out[#out + 1] = {unpack(list, i, math.min(i + 999, #list))}
  end
  return out
end
