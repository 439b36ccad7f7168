package io.queuekit.redis.internal;

import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Runs a call on a Redis Cluster again while the slot of its keys is moving to another master.
 * Jedis follows {@code MOVED} and {@code ASK} for a single command but not in a pipeline, and
 * never waits out {@code TRYAGAIN}, the answer to a command on several keys of a slot whose keys
 * are being migrated (our scripts, the moment some of a queue's keys have moved and others not).
 * In each case the call did not run, so running it again cannot repeat it. On other clients the
 * call runs once.
 */
final class SlotMoves {
    /** Tries in all: the pauses between them add up to 310 ms, longer than a queue's slot takes to move. */
    private static final int TRIES = 6;

    private SlotMoves() {}

    static <R> R retry(UnifiedJedis jedis, Supplier<R> call) {
        JedisClient cluster = JedisClient.of(jedis);
        if (cluster.kind() != JedisClient.Kind.CLUSTER) {
            return call.get();
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (JedisDataException e) {
                if (!moving(e) || attempt == TRIES) {
                    throw e;
                }
                if (e instanceof JedisRedirectionException) {
                    cluster.refreshSlots();
                }
                pause(attempt);
            }
        }
    }

    private static boolean moving(JedisDataException e) {
        return e instanceof JedisRedirectionException
                || String.valueOf(e.getMessage()).startsWith("TRYAGAIN");
    }

    /** 10, 20, 40, ... ms: the keys of a migrating slot move in batches. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(10L << (attempt - 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JedisException("interrupted while a call waited for its slot to move", e);
        }
    }
}
