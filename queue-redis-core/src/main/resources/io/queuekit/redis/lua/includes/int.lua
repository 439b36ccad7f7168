-- integers as exact decimal text (tostring would switch to exponent notation)
local function int(x)
  return string.format('%.0f', x)
end
