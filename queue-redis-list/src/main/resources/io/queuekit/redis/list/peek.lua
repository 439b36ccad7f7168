-- The first ARGV[1] elements of 'ready' in the order they will be taken (oldest first), without
-- taking them. Read-only. Returns the elements as stored. Work: ARGV[1] elements.
--- @include "check_layout"
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_LEASE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
check_layout()
local out = redis.call('LRANGE', K_READY, -tonumber(ARGV[1]), -1)
local n = #out
for i = 1, math.floor(n / 2) do
  out[i], out[n + 1 - i] = out[n + 1 - i], out[i]
end
return out
