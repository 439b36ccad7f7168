-- Take up to n due messages into flight under a lease, after returning expired leases. Atomic:
-- a message is either still waiting or in flight with a lease, never neither. Each
-- hand-out gets a fencing token no other hand-out ever gets.
-- ARGV[1] n, ARGV[2] lease ms, ARGV[3] max attempts, ARGV[4] dead-letter retention.
-- Returns {now, next event ms or -1, expired leases returned, expired leases dead-lettered,
--          id1, attempt1, token1, body1, id2, ...}.
local K_LAYOUT, K_READY, K_CLAIMING, K_DELAYED, K_INFLIGHT = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_LEASE, K_BODY, K_ATT, K_DEAD, K_REASON = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_SEQ, K_SIGNAL = KEYS[11], KEYS[12]
check_layout()
local n, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local now = now_ms()
local returned, buried = reap(now, tonumber(ARGV[3]), tonumber(ARGV[4]), 100)

local ids = pop_ready(n, now)

local out = {now, -1, returned, buried}
if #ids > 0 then
  local token = redis.call('INCRBY', K_SEQ, #ids) - #ids
  for _, id in ipairs(ids) do
    local body = redis.call('HGET', K_BODY, id)
    if body then
      token = token + 1
      local att = redis.call('HINCRBY', K_ATT, id, 1)
      redis.call('ZADD', K_INFLIGHT, now + lease, id)
      redis.call('HSET', K_LEASE, id, int(token))
      out[#out + 1] = id
      out[#out + 1] = att
      out[#out + 1] = token
      out[#out + 1] = body
    end
  end
end
out[2] = next_event(now)
if #ids > 0 then
  after_claim(now, out[2])
end
return out
