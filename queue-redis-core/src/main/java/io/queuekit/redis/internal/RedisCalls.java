package io.queuekit.redis.internal;

import io.queuekit.TransportException;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisException;

/** Runs a Redis call and turns the client's exception into a {@link TransportException}. */
public final class RedisCalls {
    /**
     * The shortest timeout sent with a blocking command. Redis 6.2 reads a timeout of about a
     * millisecond as "block forever", so shorter waits are waited out in the JVM instead.
     */
    public static final long MIN_BLOCK_MILLIS = 10;

    private RedisCalls() {}

    /** A blocking command's timeout in seconds, for a wait of at least {@link #MIN_BLOCK_MILLIS}. */
    public static double blockSeconds(long millis) {
        if (millis < MIN_BLOCK_MILLIS) {
            throw new IllegalArgumentException("a blocking command must wait at least " + MIN_BLOCK_MILLIS
                    + " ms, or Redis 6.2 may wait forever: " + millis + " ms");
        }
        return millis / 1000.0;
    }

    /**
     * Runs {@code call}, a Jedis failure rethrown as a {@link TransportException} that keeps it as its cause.
     *
     * @param what names the queue and the operation for the exception message, e.g.
     *     {@code "redis-list orders: send"}
     */
    public static <R> R call(String what, Supplier<R> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            throw new TransportException(what + " failed: " + e.getMessage(), e);
        }
    }
}
