-- Delete messages their current deliveries finished.
-- ARGV: pairs of id, fencing token (one pair for Delivery.ack, several for MessageQueue.ackAll).
-- Returns how many were deleted; a delivery that no longer owns its message is skipped.
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_BODY, K_ATT = KEYS[6], KEYS[7], KEYS[8]
check_layout()
-- whom their deliveries still own (as owns() in zset.lua decides), all looked up at once
local ids, tokens = {}, {}
for i = 1, #ARGV, 2 do
  ids[#ids + 1] = ARGV[i]
  tokens[#tokens + 1] = ARGV[i + 1]
end
local now = now_ms()
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
