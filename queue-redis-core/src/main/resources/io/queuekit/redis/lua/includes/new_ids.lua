-- n fresh generated ids, as new_id makes them, for a batch: the counter gives them all at once,
-- and one already taken (the counter was reset) is replaced by new_id's. Consecutive numbers share
-- all base-36 digits but the last within each 36: one string each.
--- @include "base36"
--- @include "new_id"
--- @include "slices"
local function new_ids(n, suffix)
  local last = redis.call('INCRBY', K_SEQ, n)
  local ids, prefix = {}, nil
  for i = 1, n do
    local c = last - n + i
    local d = c % 36
    if not prefix or d == 0 then
      prefix = '@' .. (c < 36 and '' or base36((c - d) / 36))
    end
    ids[i] = prefix .. string.sub(DIGITS, d + 1, d + 1) .. suffix
  end
  for p, part in ipairs(slices(ids)) do
    local taken = redis.call('HMGET', K_BODY, unpack(part))
    for i in ipairs(part) do
      if taken[i] then
        ids[(p - 1) * 1000 + i] = new_id(suffix)
      end
    end
  end
  return ids
end
