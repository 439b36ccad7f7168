package io.queuekit.redis.internal;

import java.time.Duration;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * How many replicas must hold a write before it returns: none (Redis replicates asynchronously),
 * or {@code count} within {@code timeout}, waited for with {@code WAIT} on the connection that
 * made the write. {@code WAIT} counts the replicas that have every write of its own connection, so
 * the write and the {@code WAIT} go in one pipeline: on one connection of a {@code RedisClient} or
 * a {@code RedisSentinelClient} (the current primary), and on the connection to the master of the
 * write's key on a cluster.
 *
 * @param count replicas that must acknowledge a write; 0 for none
 * @param timeout longest wait for them
 */
public record Replicas(int count, Duration timeout) {
    /** Writes return once the primary has them, as Redis does by default. */
    public static final Replicas NONE = new Replicas(0, Duration.ZERO);

    /** Whether writes wait for replicas. */
    public boolean waited() {
        return count > 0;
    }

    /**
     * Sends {@code write} and a {@code WAIT} for the replicas in one pipeline, and returns the
     * write's reply as the pipeline reads it; a Redis error in it is thrown (as
     * {@code JedisDataException}). On a cluster it runs again while the key's slot moves
     * ({@link SlotMoves}).
     *
     * @param key a key the write touches: on a cluster, it picks the master
     * @throws JedisException if fewer replicas than {@code count} acknowledged the write in
     *     time: the write is on the primary, and is lost if the primary fails before it reaches a
     *     replica
     */
    public <R> R write(UnifiedJedis jedis, byte[] key, Function<AbstractPipeline, Response<R>> write) {
        return SlotMoves.retry(jedis, () -> {
            try (AbstractPipeline p = jedis.pipelined()) {
                Response<R> reply = write.apply(p);
                Response<Long> acked = p.waitReplicas(key, count, Math.max(1, timeout.toMillis()));
                p.sync();
                R r = answered(reply);
                long n = answered(acked);
                if (n < count) {
                    throw new JedisException("written on the primary, but only " + n + " of " + count
                            + (count == 1 ? " replica" : " replicas") + " acknowledged it within "
                            + timeout.toMillis() + " ms; it is lost if the primary fails before it reaches a replica");
                }
                return r;
            }
        });
    }

    /**
     * A reply the pipeline read. A cluster pipeline that loses a connection logs it and leaves the
     * replies of that node unset, where Jedis then throws {@link IllegalStateException}: that is a
     * lost connection, the write made or not.
     */
    private static <R> R answered(Response<R> reply) {
        try {
            return reply.get();
        } catch (IllegalStateException e) {
            throw new JedisConnectionException("the connection to the primary was lost before it answered", e);
        }
    }
}
