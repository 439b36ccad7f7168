-- Claim up to ARGV[3] deliveries for consumer ARGV[2] of group ARGV[1], after the acks of the
-- ack script's arguments from ARGV[7] on (group, consumer, pairs; ack_pairs), if any. ARGV[4]
-- lease ms, ARGV[5] max attempts, ARGV[6] dead-letter retention. Nothing is reaped or handed out
-- while the group is paused.
-- First the leases that expired are reaped: dead-lettered on the last attempt, else made to wait
-- in 'delayed' as due now. Then messages are handed out in the order they became ready: a new
-- entry (XREADGROUP, skipping those addressed to another group) before a waiting one (a retry,
-- a reaped lease) that fell due in a later millisecond than the entry's, so that a retry or an
-- expired lease goes behind what was published before it fell due. A waiting one is claimed again
-- with XCLAIM, which raises the delivery count that is its attempt.
-- Returns {now, next event ms or -1, reaped, buried, acked, paused 0/1, last stream id,
-- then per delivery: message id, attempt, stream id, payload section, enqueue ms}.
-- Work: bounded by ARGV[3] (and the acks): at most ARGV[3] expired leases and due retries, and
-- at most 10 reads of ARGV[3] new entries (after a replay, with their PEL entries read before and
-- put back after); the group's last-delivered id as group_last keeps it, read with the deletion
-- mark 'd:<group>' that refuses the claim (one HMGET; XINFO GROUPS only where the id is not
-- recorded), and one HSET of it after a read.
--- @include "check_layout"
--- @include "now_ms"
--- @include "ack_pairs"
--- @include "fields"
--- @include "deliver"
--- @include "next_event"
--- @include "bury"
--- @include "group_last"
local K_LAYOUT, K_READY, K_DELAYED, K_INFLIGHT, K_DEAD = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local K_REASON, K_ATT, K_BODY, K_PAUSED, K_COUNTS = KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
check_layout()
local group, consumer = ARGV[1], ARGV[2]
local max, lease = tonumber(ARGV[3]), tonumber(ARGV[4])
local max_attempts, retention = tonumber(ARGV[5]), tonumber(ARGV[6])
local now = now_ms()
local out = {now, -1, 0, 0, ack_pairs(7, now), 0, '0-0'}
if redis.call('EXISTS', K_PAUSED) == 1 then
  out[6] = 1
  return out
end
local function deleted()
  return error('queuekit: ' .. K_READY .. ' has no consumer group ' .. group .. ': it was deleted')
end
local marks = redis.call('HMGET', K_COUNTS, 'd:' .. group, 'l:' .. group)
if marks[1] then
  return error('queuekit: consumer group ' .. group .. ' of ' .. K_READY
    .. ' is being deleted: a deleteGroup is running, or stopped midway (delete it again to finish)')
end
local last = marks[2] or group_last(group)
if not last then
  return deleted()
end
local taken, reaped, buried = 0, 0, 0

-- 1. leases that expired
for _, sid in ipairs(redis.call('ZRANGEBYSCORE', K_INFLIGHT, '-inf', now, 'LIMIT', 0, max)) do
  redis.call('ZREM', K_INFLIGHT, sid)
  local p = redis.call('XPENDING', K_READY, group, sid, sid, 1)[1]
  if p then
    local att = p[4]
    if att >= max_attempts then
      local e = redis.call('XRANGE', K_READY, sid, sid)[1]
      redis.call('XACK', K_READY, group, sid)
      if e then -- else a hard cap removed it, and counted it missed
        local f = fields(e[2])
        local id = f['i'] or ('@' .. sid)
        redis.call('HSET', K_BODY, id, (f['e'] or string.match(sid, '^(%d+)')) .. ':' .. (f['b'] or ''))
        redis.call('HSET', K_ATT, id, att)
        bury(id, 'lease expired on attempt ' .. att .. ' of ' .. max_attempts, now, retention)
        buried = buried + 1
      end
    else
      redis.call('ZADD', K_DELAYED, now, sid)
      reaped = reaped + 1
    end
  end
end

-- The entries in flight or waiting among the next count after last, each as {consumer, delivery
-- count} from the PEL. Only a replay leaves entries pending past the last-delivered id; reading
-- them again would make the reader their holder with count 1, which breaks the fencing of owns()
-- and restarts their attempts, so the claim puts these back after the read.
-- Work: one XPENDING of one entry; after a replay, XRANGE of count entries and one XPENDING each.
local function held_ahead(from, count)
  local held = {}
  local ahead = redis.pcall('XPENDING', K_READY, group, '(' .. from, '+', 1)
  if ahead.err then
    if string.find(ahead.err, 'NOGROUP', 1, true) then
      return deleted() -- destroyed by hand, its recorded id left behind
    end
    return error(ahead.err)
  end
  if ahead[1] == nil then
    return held
  end
  for _, e in ipairs(redis.call('XRANGE', K_READY, '(' .. from, '+', 'COUNT', count)) do
    local sid = e[1]
    if redis.call('ZSCORE', K_INFLIGHT, sid) or redis.call('ZSCORE', K_DELAYED, sid) then
      local p = redis.call('XPENDING', K_READY, group, sid, sid, 1)[1]
      if p then
        held[sid] = {p[2], p[4]}
      end
    end
  end
  return held
end

-- 2. hand out, new entries and waiting ones in the order they became ready
local waiting = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'WITHSCORES', 'LIMIT', 0, max)
local w = 1
local read_last = last
local reads, more = 0, false
while taken < max do
  local due = waiting[w + 1]
  local want = max - taken
  local count = want
  if due then
    -- only the new entries published up to the millisecond the waiting one fell due
    count = #redis.call('XRANGE', K_READY, '(' .. last, due .. '-18446744073709551615', 'COUNT', want)
  end
  if count > 0 and reads < 10 then
    reads = reads + 1
    local held = held_ahead(last, count)
    local r = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', count, 'STREAMS', K_READY, '>')
    local entries = (r and r[1] and r[1][2]) or {}
    local plain = 0
    for _, e in ipairs(entries) do
      local sid = e[1]
      local f = fields(e[2])
      last = sid
      if f['g'] == nil then
        plain = plain + 1
      end
      if f['g'] ~= nil and f['g'] ~= group then
        redis.call('XACK', K_READY, group, sid) -- another group's requeued message
      elseif redis.call('ZSCORE', K_INFLIGHT, sid) or redis.call('ZSCORE', K_DELAYED, sid) then
        -- read again after a replay while it is in flight or waits: it stays where it is, and its
        -- holder and attempt, which the read reset, are put back (JUSTID leaves the count as set)
        local h = held[sid]
        if h then
          redis.call('XCLAIM', K_READY, group, h[1], 0, sid, 'RETRYCOUNT', h[2], 'JUSTID')
        end
      else
        deliver(out, sid, f, 1, now, lease)
        taken = taken + 1
      end
    end
    if plain > 0 and redis.call('HEXISTS', K_COUNTS, 'r:' .. group) == 1 then
      redis.call('HINCRBY', K_COUNTS, 'r:' .. group, plain)
    end
    if #entries < count then
      count = 0 -- nothing more to read
      if not due then
        break
      end
    end
  elseif due then
    local sid = waiting[w]
    w = w + 2
    redis.call('ZREM', K_DELAYED, sid)
    local p = redis.call('XPENDING', K_READY, group, sid, sid, 1)[1]
    if p then
      local c = redis.call('XCLAIM', K_READY, group, consumer, 0, sid)
      if c[1] and c[1][2] then
        deliver(out, sid, fields(c[1][2]), p[4] + 1, now, lease)
        taken = taken + 1
      else
        -- gone from the stream though pending: a hard cap removed it (publish.lua counted it
        -- missed, as every entry it removes that the group had not acked) or, for a subscription,
        -- soft retention did (trim.lua, which counts only what the subscription had not read: not
        -- this, read once and in its process's hands). Not counted here: the cap counted it.
        redis.call('XACK', K_READY, group, sid)
      end
    end
  else
    more = count > 0 -- reads left off with entries still to read
    break
  end
end

if last ~= read_last then
  redis.call('HSET', K_COUNTS, 'l:' .. group, last) -- where the XREADGROUPs left the group's id
end
out[2] = more and now or next_event(now)
out[3], out[4] = reaped, buried
local tail = redis.call('XREVRANGE', K_READY, '+', '-', 'COUNT', 1)[1]
if tail then
  out[7] = tail[1]
end
return out
