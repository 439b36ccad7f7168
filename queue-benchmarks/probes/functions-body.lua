local t = redis.call('TIME')
local a = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local b = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', t[1], 'LIMIT', 0, 1)
local c = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
return {t[1], #a, #b, #c}
