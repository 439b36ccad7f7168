-- Counts of the list queue: {ready, in flight, delayed, dead}. Read-only; stands alone.
-- KEYS[1] ready, KEYS[2] claiming, KEYS[3] delayed, KEYS[4] dead.
return {redis.call('LLEN', KEYS[1]), redis.call('LLEN', KEYS[2]), redis.call('ZCARD', KEYS[3]),
  redis.call('ZCARD', KEYS[4])}
