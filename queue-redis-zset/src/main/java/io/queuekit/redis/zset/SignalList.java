package io.queuekit.redis.zset;

import io.queuekit.internal.WakeUps;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.KeyValue;

/**
 * The delay queue's wake-up list ({@code signal}), on which its consumers wait between claims: a
 * blocking read, a read that does not block, and a wake-up handed back. What they mean is the
 * wake-up protocol's ({@link WakeUps}); this is only the calls.
 */
final class SignalList {
    /** The server's timer tick at its default {@code hz} of 10: how late a blocking timeout can fire. */
    static final long TICK_MILLIS = 100;

    private final UnifiedJedis jedis;
    private final String key;
    private final ZsetScripts.Wake wake;
    private final String waitLabel;
    private final String readLabel;

    SignalList(RedisContext<?> queue) {
        this.jedis = queue.client();
        this.key = queue.settings().keys().key("signal");
        this.wake = new ZsetScripts.Wake(queue);
        this.waitLabel = queue.label() + ": wait";
        this.readLabel = queue.label() + ": read wake-up";
    }

    /** Blocks up to {@code millis} (at least {@link RedisCalls#MIN_BLOCK_MILLIS}) for a wake-up. */
    long block(long millis) {
        KeyValue<String, String> popped =
                RedisCalls.call(waitLabel, () -> jedis.blpop(RedisCalls.blockSeconds(millis), key));
        return popped == null ? WakeUps.NONE : signalTime(popped.getValue());
    }

    /**
     * Takes a wake-up off the list if one is there, without blocking. {@code RPOP}: the list holds
     * one at most, and the user rights docs/reliability-and-security.md lists for a queue grant it, not
     * {@code LPOP}.
     */
    long pop() {
        String popped = RedisCalls.call(readLabel, () -> jedis.rpop(key));
        return popped == null ? WakeUps.NONE : signalTime(popped);
    }

    /** Pushes back a wake-up for {@code millis} that this object took and will not claim at. */
    void handOn(long millis) {
        wake.run(millis);
    }

    /** The time a wake-up names (one that is not a number, as an older version pushed, means now). */
    private static long signalTime(String signal) {
        try {
            return Math.max(0, Long.parseLong(signal));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
