-- Whether the hand-out (consumer, count) still holds stream entry sid in group under a lease that
-- has not expired by now: the entry is pending in the group's PEL, owned by that consumer with
-- that delivery count (every claim of an entry, XREADGROUP or XCLAIM, raises its count, so a
-- later claim fences out an earlier holder), and its lease in 'inflight' ends after now.
local function owns(group, consumer, sid, count, now)
  local lease = redis.call('ZSCORE', K_INFLIGHT, sid)
  if not lease or tonumber(lease) <= now then
    return false
  end
  local p = redis.call('XPENDING', K_READY, group, sid, sid, 1)
  return p[1] ~= nil and p[1][2] == consumer and tostring(p[1][4]) == count
end
