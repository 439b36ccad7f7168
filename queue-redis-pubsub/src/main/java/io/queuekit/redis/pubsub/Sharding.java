package io.queuekit.redis.pubsub;

import io.queuekit.redis.internal.JedisClient;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.KeyValue;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Whether a channel is sharded ({@code SPUBLISH}, {@code SSUBSCRIBE}) or classic: the one rule
 * that every publisher and subscriber of a channel follows, so that they meet. A channel is
 * sharded when its broadcaster is on a cluster client ({@code RedisClusterClient} or {@code JedisCluster}), built with
 * {@code sharded(true)}, and the master serving the channel's slot runs Redis 7 or later, as its
 * {@code HELLO} reply says ({@code HELLO} needs no ACL grant, unlike {@code INFO}).
 *
 * <p>The rule is applied to each connection as it is made, never once for good: a subscription
 * asks the connection it is about to subscribe on, at every (re)subscription; a publisher asks each
 * connection to the slot's master that it has not asked before. An upgrade restarts the server,
 * which ends every connection to it, so after an upgrade from Redis 6.2 to 7 the instances started
 * before it and those started after all speak sharded pub/sub from their first new connection on.
 */
final class Sharding {
    /** For a channel that is never sharded: any client but a cluster client, or {@code sharded(false)}. */
    static final Sharding NEVER = new Sharding(null, null);
    /** Stale connections asked in a row before giving up: a pool holds at most maxIdle of them. */
    private static final int MAX_STALE = 256;

    private final JedisClient cluster;
    private final String channelKey;
    private final int slot;
    /** What each connection answered, forgotten with the connection. */
    private final Map<Connection, Boolean> answers = Collections.synchronizedMap(new WeakHashMap<>());

    private Sharding(JedisClient cluster, String channelKey) {
        this.cluster = cluster;
        this.channelKey = channelKey;
        this.slot = channelKey == null ? 0 : JedisClusterCRC16.getSlot(channelKey);
    }

    static Sharding of(UnifiedJedis client, boolean sharded, String channelKey) {
        if (!sharded) {
            return NEVER;
        }
        JedisClient jedis = JedisClient.of(client);
        return jedis.kind() == JedisClient.Kind.CLUSTER ? new Sharding(jedis, channelKey) : NEVER;
    }

    /**
     * Where a subscription borrows its connections: from the slot's master when the channel may be
     * sharded, since that is the master to ask, and a sharded subscription's place; else from
     * {@code any}.
     */
    ConnectionSource source(ConnectionSource any) {
        return cluster == null ? any : ConnectionSource.forSlot(cluster, slot);
    }

    /** Whether a publish now is sharded, as a connection to the slot's master says. */
    boolean forPublish() {
        if (cluster == null) {
            return false;
        }
        boolean refreshed = false;
        JedisException failure = null;
        for (int stale = 0; stale <= MAX_STALE; ) {
            Connection c;
            try {
                c = cluster.connectionToSlot(slot);
            } catch (JedisException e) {
                if (refreshed) {
                    throw e;
                }
                // the master the client knew for the slot is gone: learn where the slot is now, as
                // the client's own commands do
                cluster.refreshSlots();
                refreshed = true;
                continue;
            }
            try (c) {
                Boolean known = answers.get(c);
                if (known == null) {
                    known = speaksSharded(c);
                    answers.put(c, known);
                }
                return known;
            } catch (JedisConnectionException e) {
                // an idle pooled connection to a server that has since restarted: it goes back
                // broken and is discarded; the next one may be new
                failure = e;
                stale++;
            }
        }
        throw failure;
    }

    /** {@code SPUBLISH}: only when {@link #forPublish()} said so. */
    long spublish(byte[] channel, byte[] message) {
        return cluster.spublish(channel, message);
    }

    /** Whether a subscription on {@code c}, a connection to the slot's master, is sharded. */
    boolean on(Connection c) {
        return cluster != null && speaksSharded(c);
    }

    /** What a pattern subscription is told where the channel is sharded. */
    UnsupportedOperationException noPatterns() {
        return new UnsupportedOperationException(channelKey + " is a sharded channel (SSUBSCRIBE, Redis 7+ on a "
                + "cluster), and sharded pub/sub has no patterns: subscribe to each channel, or build every "
                + "broadcaster of the cluster with sharded(false) for classic pub/sub, whose publish() counts "
                + "only the subscribers connected to the node that received the message");
    }

    private static boolean speaksSharded(Connection c) {
        return majorVersion(c.executeCommand(new CommandArguments(Protocol.Command.HELLO))) >= 7;
    }

    /**
     * The server's major version in a {@code HELLO} reply: RESP2's list of names and values, or
     * RESP3's map; 0 if it does not say.
     */
    static int majorVersion(Object hello) {
        if (!(hello instanceof List<?> fields)) {
            return 0;
        }
        boolean map = !fields.isEmpty() && fields.get(0) instanceof KeyValue;
        for (int i = 0; i < fields.size(); i += map ? 1 : 2) {
            Object name = fields.get(i);
            Object value = i + 1 < fields.size() ? fields.get(i + 1) : null;
            if (name instanceof KeyValue<?, ?> kv) {
                name = kv.getKey();
                value = kv.getValue();
            }
            if ("version".equals(text(name))) {
                return leadingNumber(text(value));
            }
        }
        return 0;
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? SafeEncoder.encode(b) : o instanceof String s ? s : null;
    }

    private static int leadingNumber(String version) {
        if (version == null) {
            return 0;
        }
        int end = 0;
        while (end < version.length() && end < 9 && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(version.substring(0, end));
    }
}
