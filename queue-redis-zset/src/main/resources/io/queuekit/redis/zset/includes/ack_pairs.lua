-- Deletes the messages that the deliveries named in ARGV from index first on, pairs of id and
-- fencing token, still own (as owns() decides, all looked up at once). Returns how many.
--- @include "slices"
local function ack_pairs(first, now)
  local ids, tokens = {}, {}
  for i = first, #ARGV, 2 do
    ids[#ids + 1] = ARGV[i]
    tokens[#tokens + 1] = ARGV[i + 1]
  end
  local owned = {}
  for p, part in ipairs(slices(ids)) do
    local deadlines = redis.call('ZMSCORE', K_INFLIGHT, unpack(part))
    local leases = redis.call('HMGET', K_LEASE, unpack(part))
    local offset = (p - 1) * 1000 -- slices holds 1000 values each
    for i, id in ipairs(part) do
      if deadlines[i] and tonumber(deadlines[i]) > now and leases[i] == tokens[offset + i] then
        owned[#owned + 1] = id
      end
    end
  end
  for _, part in ipairs(slices(owned)) do
    redis.call('ZREM', K_INFLIGHT, unpack(part))
    redis.call('HDEL', K_LEASE, unpack(part))
    redis.call('HDEL', K_BODY, unpack(part))
    redis.call('HDEL', K_ATT, unpack(part))
  end
  return #owned
end
