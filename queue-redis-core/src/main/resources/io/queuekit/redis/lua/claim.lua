-- Take up to n ready messages into flight under a lease, after returning expired leases and
-- promoting due delayed messages. Atomic: a message is either still ready or in flight with a
-- lease, never neither.
-- ARGV[1] n, ARGV[2] lease ms, ARGV[3] max attempts, ARGV[4] dead-letter retention,
-- ARGV[5] id a blocked consumer already moved to 'claiming', or '' if none.
-- Returns {now, next event ms or -1, expired leases returned, expired leases dead-lettered,
--          id1, attempt1, body1, id2, ...}.
local n, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = now_ms()
local returned, buried = reap(now, lease, tonumber(ARGV[3]), tonumber(ARGV[4]), 100)
promote(now)

local ids = {}
if ARGV[5] ~= '' and redis.call('LREM', K_CLAIMING, 1, ARGV[5]) == 1 then
  ids[1] = ARGV[5]
end
if #ids < n then
  for _, id in ipairs(pop_ready(n - #ids, now)) do
    ids[#ids + 1] = id
  end
end

local out = {now, 0, returned, buried}
for _, id in ipairs(ids) do
  local body = redis.call('HGET', K_BODY, id)
  if body then
    local att = redis.call('HINCRBY', K_ATT, id, 1)
    redis.call('ZADD', K_INFLIGHT, now + lease, id)
    out[#out + 1] = id
    out[#out + 1] = att
    out[#out + 1] = body
  end
end
if #ids > 0 then
  after_claim(now)
end
out[2] = next_event(now)
return out
