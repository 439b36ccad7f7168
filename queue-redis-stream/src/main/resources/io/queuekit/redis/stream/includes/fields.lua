-- A stream entry's field list {f1, v1, f2, v2, ...} as a table by field.
local function fields(list)
  local f = {}
  for i = 1, #list, 2 do
    f[list[i]] = list[i + 1]
  end
  return f
end
