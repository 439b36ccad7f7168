package io.queuekit.redis;

import io.queuekit.TransportException;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisException;

/** Runs a Redis call and turns the client's exception into a {@link TransportException}. */
public final class RedisCalls {
    private RedisCalls() {}

    /**
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
