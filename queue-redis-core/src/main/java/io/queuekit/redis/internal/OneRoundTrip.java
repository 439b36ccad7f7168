package io.queuekit.redis.internal;

import java.util.List;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * Writes a few commands to one connection at once and reads their replies: one round trip where
 * there would be several, so that a managed consumer's ack travels with its next fetch, and the
 * read of the queue's pause after it. A command may block (a {@code BLMOVE}, a {@code BLPOP}); the
 * replies are then read with the client's blocking socket timeout, as Jedis reads a blocking
 * command sent alone, whatever the plain socket timeout is.
 *
 * <p>Only clients that lend a connection of one pool can do this ({@link JedisClient.Kind#STANDALONE}); on others
 * (a cluster or Sentinel client) {@link #of} returns null and callers send the commands one after
 * another.
 */
public final class OneRoundTrip {
    private final Pool<Connection> pool;

    private OneRoundTrip(Pool<Connection> pool) {
        this.pool = pool;
    }

    /** For {@code client}; null if it lends no connection of one pool. */
    static OneRoundTrip of(UnifiedJedis client) {
        JedisClient jedis = JedisClient.of(client);
        if (jedis.kind() != JedisClient.Kind.STANDALONE) {
            return null;
        }
        Pool<Connection> pool = jedis.pool();
        return pool == null ? null : new OneRoundTrip(pool);
    }

    /**
     * Sends {@code commands} in order and returns their replies as Jedis reads them: a reply that
     * is a Redis error is its {@code JedisDataException}, in its place, and the later commands ran.
     * A connection failure throws, with no telling which commands ran.
     */
    public List<Object> run(List<CommandArguments> commands) {
        try (Connection c = pool.getResource()) {
            boolean blocking = false;
            for (CommandArguments cmd : commands) {
                c.sendCommand(cmd);
                blocking |= cmd.isBlocking();
            }
            if (!blocking) {
                return c.getMany(commands.size());
            }
            c.setTimeoutInfinite();
            try {
                return c.getMany(commands.size());
            } finally {
                c.rollbackTimeout();
            }
        }
    }
}
