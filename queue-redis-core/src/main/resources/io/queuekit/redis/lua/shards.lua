-- Records the number of shards a queue is stored in, unless a number is recorded already, in one
-- step, so that of two objects recording different numbers at once one wins and the other reads
-- it. Every queue object runs it before its first command (ShardCount); the key is in the queue's
-- unsharded tag whatever the number, so Redis Cluster runs it in one slot.
-- KEYS[1] the record, <prefix>:{<name>}:shards. ARGV[1] the object's number of shards.
-- Returns the number recorded, as stored: ARGV[1] if there was none.
local K_SHARDS = KEYS[1]
local recorded = redis.call('GET', K_SHARDS)
if recorded then
  return recorded
end
redis.call('SET', K_SHARDS, ARGV[1])
return ARGV[1]
