-- Whether stream id a comes before stream id b ('<ms>-<seq>', compared as numbers).
local function sid_less(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, bm = tonumber(am), tonumber(bm)
  if am ~= bm then
    return am < bm
  end
  return tonumber(as) < tonumber(bs)
end
