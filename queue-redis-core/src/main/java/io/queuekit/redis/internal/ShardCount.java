package io.queuekit.redis.internal;

import io.queuekit.QueueException;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The number of shards a queue is stored in, recorded in Redis by the first queue object that
 * uses the queue ({@code shards.lua}: {@code <prefix>:{<name>}:shards}, set if absent) and checked
 * by every object before its first command. An object built with another number would look for a
 * message by its id or hash in another shard than the one holding it (a cancel answering false, a
 * chosen id stored twice, a dead letter not found) and would not read the shards it does not
 * know, so it refuses every call instead. Checked once per object and remembered: a check that
 * failed (Redis unreachable, another number recorded) is made again at the next call.
 */
final class ShardCount {
    /** The part of the key that records the number. */
    private static final String PART = "shards";

    private static final LuaScript SCRIPT =
            LuaScript.compose(ShardCount.class, List.of(), RedisContext.core("shards.lua"));

    private final UnifiedJedis jedis;
    private final RedisKeys keys;
    private final int count;
    private final Replicas replicas;
    private final String label;
    private volatile boolean checked;

    /** @param keys the queue's unsharded keys, whatever {@code count} is */
    ShardCount(UnifiedJedis jedis, RedisKeys keys, int count, Replicas replicas, String label) {
        this.jedis = jedis;
        this.keys = keys;
        this.count = count;
        this.replicas = replicas;
        this.label = label;
    }

    /**
     * Nothing after a check succeeded; until then, records this object's number if none is
     * recorded, or compares it with the one that is, in one round trip.
     *
     * @param what the operation that needs it: a failure to ask Redis is a failure of that
     * @throws QueueException if another number is recorded, saying what to do
     * @throws io.queuekit.TransportException if Redis could not be asked
     */
    void check(String what) {
        if (!checked) {
            checkNow(what);
        }
    }

    private synchronized void checkNow(String what) {
        if (checked) {
            return;
        }
        Object reply = RedisCalls.call(
                label + ": " + what,
                () -> SCRIPT.eval(jedis, replicas, List.of(keys.keyBytes(PART)), List.of(QueueScript.num(count))));
        String recorded = QueueScript.str(reply);
        if (!recorded.equals(String.valueOf(count))) {
            throw new QueueException(refusal(recorded));
        }
        checked = true;
    }

    private String refusal(String recorded) {
        String key = keys.key(PART);
        int stored;
        try {
            stored = Integer.parseInt(recorded);
        } catch (NumberFormatException e) {
            stored = 0;
        }
        if (stored < 1 || stored > Sharding.MAX_SHARDS) {
            return "queue " + keys.name() + ": " + key + " holds '" + recorded + "', not a number of shards from 1 to "
                    + Sharding.MAX_SHARDS + ": set it to the number the queue is stored in, or delete it if the queue"
                    + " is empty";
        }
        return "queue " + keys.name() + " is stored in " + (stored == 1 ? "1 shard (unsharded)" : stored + " shards")
                + "; this object was built with shards(" + count + "): build it with shards(" + stored + "), or drain"
                + " the queue (ready, in flight, delayed and dead messages) and delete " + key + " first";
    }
}
