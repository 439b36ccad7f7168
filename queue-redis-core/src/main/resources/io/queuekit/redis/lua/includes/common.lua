-- Shared functions of the queuekit queue scripts. A script is composed (LuaScript.compose) of an
-- operation's KEYS declaration, this file, a storage file (list.lua or zset.lua) and the rest of
-- the operation. Each operation declares only the keys it is passed, as K_* locals
-- (local K_DEAD, K_BODY = KEYS[1], KEYS[2]), and calls only functions whose keys it declares: a
-- function here that uses a key the operation did not declare fails if called (Redis refuses to
-- read an undeclared global).
--
-- Redis runs one script at a time, so every script's work is bounded by what its call asks for
-- (an id, a batch of n) or by a fixed step, never by the size of a key: each header says its
-- bound, counts are counting commands (ZCOUNT, ZCARD, LLEN, HLEN), and what does not fit a step
-- (expired leases, dead letters over the retention) is left to later calls.
--
-- The keys of one queue, <prefix>:{<name>}:<part>, all in one hash tag:
--   part      list queue                              delay (zset) queue
--   ready     LIST of envelopes "<id> <attempt>        ZSET id -> ordered_score of its due time;
--             <enqueued ms> <payload>" (list.lua)      every waiting message, due or not
--   claiming  LIST of envelopes taken one at a time,   (must not exist)
--             until the upkeep holds them
--   delayed   ZSET envelope -> due ms: retries         (must not exist)
--   signal    (not used)                               LIST that wakes blocked consumers
--   lease     (must not exist)                         HASH id -> fencing token of the hand-out
--                                                      that holds the lease
--   held      HASH id -> envelope in flight, moved     (must not exist)
--             from claiming by the upkeep or taken
--             there by a batch take
--   inflight  ZSET id -> lease deadline (ms)           the same
--   body      HASH id -> "<enqueued ms>:<payload>":    the same, for every stored message
--             dead letters only
--   att       HASH id -> deliveries so far: dead       the same, for every stored message
--             letters only
--   dead      ZSET id -> order of death (ordered_score), both
--   reason    HASH id -> why it was dead-lettered, both
--   seq       STRING counter for generated ids (both; the list queue's only for foreign elements
--             it buries) and fencing tokens (delay queue)
--   layout    STRING 'list' or 'zset': which queue's keys these are, both
--   shards    STRING the number of shards the queue is stored in (both; under the unsharded tag
--             whatever the number, and only shards.lua reads it)
-- The layout check (check_layout) reads layout and the keys check_types names, so every script
-- that runs it declares layout, ready, claiming, delayed and, for the list queue, lease; a script
-- both queues run (dead_list.lua, dead_move.lua) declares the keys either storage touches.

-- What every storage file defines (Redis scripts may not create globals), and all that this file
-- and the scripts both queues share use of it:
--   LAYOUT              'list' or 'zset'
--   check_types()       fails if a key holds another type than this layout's, or another
--                       layout's key exists (for keys not yet marked with their layout)
--   push_ready(id, now) make a message stored by id (body and attempts, as dead letters are)
--                       ready now, behind those waiting: a requeued dead letter
--   next_due(now)       the earliest due time of a waiting message that has one, or -1
local LAYOUT, check_types, push_ready, next_due

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- integers as exact decimal text (tostring would switch to exponent notation)
local function int(x)
  return string.format('%.0f', x)
end

-- Refuses to run on keys of another layout, before anything is written: a script that failed
-- midway would leave its earlier writes behind (Redis does not roll a script back).
-- expect_type(K_X, redis.call('TYPE', K_X), 'zset'): the key may be missing or of that type.
local function expect_type(key, reply, want)
  local t = reply['ok']
  if t ~= 'none' and t ~= want then
    return error('queuekit: ' .. key .. ' is a ' .. t .. ', not the ' .. want .. ' of a ' .. LAYOUT
        .. ' queue; is this queue of another type?')
  end
end

-- expect_absent(K_X, redis.call('EXISTS', K_X)): a key of another layout must not exist.
local function expect_absent(key, exists)
  if exists == 1 then
    return error('queuekit: ' .. key .. ' exists, which a ' .. LAYOUT .. ' queue does not have; '
        .. 'is this queue of another type?')
  end
end

-- Every operation starts here, before it writes anything: the keys must be this transport's
-- (a queue opened as the wrong type, say by an operator's tool, fails without a trace instead
-- of turning its keys into another layout). Keys marked with this layout need no more checks:
-- every write of the other transport checks the mark first (the list queue's plain LPUSH too,
-- before an object's first send), so one GET is all an operation pays.
local layout_marked = false
local function check_layout()
  local layout = redis.call('GET', K_LAYOUT)
  if layout and layout ~= LAYOUT then
    return error('queuekit: ' .. K_LAYOUT .. ' says these are the keys of a ' .. layout
        .. ' queue, not a ' .. LAYOUT .. ' queue; open it as a ' .. layout .. ' queue')
  end
  layout_marked = layout == LAYOUT
  if not layout_marked then
    check_types()
  end
end

-- Called by the transport file wherever it stores a waiting message: marks the keys with
-- their layout, so that no other transport's script takes them for its own.
local function mark_layout()
  if not layout_marked then
    redis.call('SET', K_LAYOUT, LAYOUT)
    layout_marked = true
  end
end

-- The values of list in slices of at most 1000, for commands that take many values at once:
-- unpack of thousands of values exceeds Lua's stack.
local function slices(list)
  if #list == 0 then
    return {}
  elseif #list <= 1000 then
    return {list} -- the common case: no copy
  end
  local out = {}
  for i = 1, #list, 1000 do
    out[#out + 1] = {unpack(list, i, math.min(i + 999, #list))}
  end
  return out
end

-- Sorted-set scores that keep insertion order within a millisecond: (ms - 2025-01-01) * 4096
-- + tie, where tie is one more than the highest tie already used for that millisecond (0 for
-- the first), up to 4095; scores stay exact doubles (below 2^53) until 2094. Used as
--   local hi, lo = ms_range(ms)
--   local score = ordered_score(ms, redis.call('ZREVRANGEBYSCORE', K_X, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1))
local EPOCH = 1735689600000
local TIE = 4096

-- the highest and lowest score of a millisecond
local function ms_range(ms)
  local base = (ms - EPOCH) * TIE
  return base + TIE - 1, base
end

-- the next score for ms, given the highest one already used in its range (a WITHSCORES reply)
local function ordered_score(ms, highest)
  local base = (ms - EPOCH) * TIE
  if highest[2] then
    return base + math.min(tonumber(highest[2]) - base + 1, TIE - 1)
  end
  return base
end

-- the millisecond of an ordered score
local function ms_of(score)
  return math.floor(tonumber(score) / TIE) + EPOCH
end

local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local function base36(n)
  local s = ''
  repeat
    local d = n % 36
    s = string.sub(DIGITS, d + 1, d + 1) .. s
    n = (n - d) / 36
  until n == 0
  return s
end

-- A fresh generated id: '@', a counter and suffix (nil for none; a shard of a sharded queue
-- passes its '~<shard>'). Callers may not choose ids that begin with '@', so only a generated id
-- can be taken already (after the counter was reset).
local function new_id(suffix)
  while true do
    local id = '@' .. base36(redis.call('INCR', K_SEQ)) .. (suffix or '')
    if redis.call('HEXISTS', K_BODY, id) == 0 then
      return id
    end
  end
end

-- Dead letters over the retention that one script may still drop, oldest first: one for each
-- burial, so that a queue at its retention stays there, and TRIM_STEP more, so that a lowered
-- retention is reached over later burials (TRIM_STEP at a time) instead of in one script that
-- stalls the server for every client.
local TRIM_STEP = 200
local trim_budget = TRIM_STEP

-- Dead-letter an id that is no longer ready or in flight, then drop the oldest dead letters over
-- the retention, with their bodies, as far as trim_budget allows.
local function bury(id, reason, now, retention)
  local hi, lo = ms_range(now)
  redis.call('ZADD', K_DEAD, ordered_score(now, redis.call('ZREVRANGEBYSCORE', K_DEAD, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1)), id)
  redis.call('HSET', K_REASON, id, reason)
  trim_budget = trim_budget + 1
  local excess = math.min(redis.call('ZCARD', K_DEAD) - retention, trim_budget)
  if excess > 0 then
    trim_budget = trim_budget - excess
    for _, part in ipairs(slices(redis.call('ZRANGE', K_DEAD, 0, excess - 1))) do
      redis.call('ZREM', K_DEAD, unpack(part))
      redis.call('HDEL', K_BODY, unpack(part))
      redis.call('HDEL', K_ATT, unpack(part))
      redis.call('HDEL', K_REASON, unpack(part))
    end
  end
end

-- The earliest time something becomes claimable: a delayed message falls due or a lease
-- expires; -1 if neither.
local function next_event(now)
  local t = next_due(now)
  local lease = redis.call('ZRANGE', K_INFLIGHT, 0, 0, 'WITHSCORES')
  if lease[2] then
    local l = tonumber(lease[2])
    if t < 0 or l < t then
      t = l
    end
  end
  return t
end
