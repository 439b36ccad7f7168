-- n in base 36, as generated ids write their counter
local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local function base36(n)
  local s = ''
  repeat
    local d = n % 36
    s = string.sub(DIGITS, d + 1, d + 1) .. s
    n = (n - d) / 36
  until n == 0
  return s
end
