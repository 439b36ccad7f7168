package io.queuekit.redis.internal;

import java.time.Duration;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

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

    /** Tries of a cluster write that Redis redirected, or found its keys mid-migration. */
    private static final int CLUSTER_TRIES = 5;

    /** Whether writes wait for replicas. */
    public boolean waited() {
        return count > 0;
    }

    /**
     * Sends {@code write} and a {@code WAIT} for the replicas in one pipeline, and returns the
     * write's reply as the pipeline reads it; a Redis error in it is thrown (as
     * {@link JedisDataException}).
     *
     * @param key a key the write touches: on a cluster, it picks the master
     * @throws JedisException if fewer replicas than {@code count} acknowledged the write in
     *     time: the write is on the primary, and is lost if the primary fails before it reaches a
     *     replica
     */
    public <R> R write(UnifiedJedis jedis, byte[] key, Function<AbstractPipeline, Response<R>> write) {
        for (int attempt = 1; ; attempt++) {
            try (AbstractPipeline p = jedis.pipelined()) {
                Response<R> reply = write.apply(p);
                Response<Long> acked = p.waitReplicas(key, count, Math.max(1, timeout.toMillis()));
                p.sync();
                R r = reply.get();
                long n = acked.get();
                if (n < count) {
                    throw new JedisException("stored on the primary, but only " + n + " of " + count
                            + (count == 1 ? " replica" : " replicas") + " acknowledged it within " + timeout.toMillis()
                            + " ms; it is lost if the primary fails before it reaches a replica");
                }
                return r;
            } catch (JedisDataException e) {
                // a pipeline does not follow MOVED or ASK, nor wait out TRYAGAIN while a slot migrates:
                // the write did not run, so learn the slots again and repeat it
                if (!(jedis instanceof RedisClusterClient cluster) || !movedOrMigrating(e) || attempt == CLUSTER_TRIES) {
                    throw e;
                }
                cluster.refreshClusterTopology();
                pause(attempt);
            }
        }
    }

    /** 10, 20, 40, ... ms: keys of a migrating slot move one by one. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(10L << (attempt - 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JedisException("interrupted while a write waited for its slot to settle", e);
        }
    }

    private static boolean movedOrMigrating(JedisDataException e) {
        String m = String.valueOf(e.getMessage());
        return e instanceof JedisRedirectionException || m.startsWith("TRYAGAIN");
    }
}
