-- Sorted-set scores that keep insertion order within a millisecond: (ms - 2025-01-01) * 4096
-- + tie, where tie is one more than the highest tie already used for that millisecond (0 for
-- the first), up to 4095; scores stay exact doubles (below 2^53) until 2094. Used as
--   local hi, lo = ms_range(ms)
--   local score = ordered_score(ms, redis.call('ZREVRANGEBYSCORE', K_X, hi, lo, 'WITHSCORES', 'LIMIT', 0, 1))
local EPOCH = 1735689600000
local TIE = 4096
