-- Expired leases, up to limit of them, as reap_one. Returns how many went back and how many
-- were buried.
--- @include "reap_one"
local function reap(now, max_attempts, retention, limit)
  local expired = redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, limit)
  local returned, buried = 0, 0
  for _, id in ipairs(expired) do
    local what = reap_one(id, now, max_attempts, retention)
    if what == 'returned' then
      returned = returned + 1
    elseif what == 'buried' then
      buried = buried + 1
    end
  end
  return returned, buried
end
