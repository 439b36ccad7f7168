package io.queuekit.redis.pubsub;

import io.queuekit.testing.RedisServer;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.util.JedisURIHelper;

/** Clients and names for tests. */
final class Clients {
    private Clients() {}

    /**
     * A client whose pool has room for the test's subscriptions (each holds a connection) and whose
     * borrow wait is bounded, so a mistake fails instead of hanging.
     */
    static RedisClient forServer(RedisServer server) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        pool.setMaxWait(Duration.ofSeconds(5));
        return forServer(server, pool);
    }

    /** Like {@link #forServer(RedisServer)}, speaking the given protocol. */
    static RedisClient forServer(RedisServer server, RedisProtocol protocol) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        pool.setMaxWait(Duration.ofSeconds(5));
        return forServer(server, pool, protocol);
    }

    /** With Jedis's default protocol negotiation: RESP3 on Redis 6 and later. */
    static RedisClient forServer(RedisServer server, ConnectionPoolConfig pool) {
        return forServer(server, pool, null);
    }

    static RedisClient forServer(RedisServer server, ConnectionPoolConfig pool, RedisProtocol protocol) {
        return forServer(server, pool, protocol, null);
    }

    /**
     * Like {@link #forServer(RedisServer, RedisProtocol)} (a null protocol negotiates), with the
     * connection, socket and blocking-socket timeouts all set to {@code timeouts}.
     */
    static RedisClient withTimeouts(RedisServer server, RedisProtocol protocol, Duration timeouts) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        pool.setMaxWait(Duration.ofSeconds(5));
        return forServer(server, pool, protocol, timeouts);
    }

    /**
     * A plain {@link UnifiedJedis} on its own pool, none of the client classes whose pools a
     * subscription can reach: Jedis lends each subscription its connection. Connection, socket
     * and blocking-socket timeouts are all {@code timeouts}, or Jedis's defaults if null.
     */
    static UnifiedJedis plain(RedisServer server, Duration timeouts) {
        URI uri = URI.create(server.uri());
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        pool.setMaxWait(Duration.ofSeconds(5));
        PooledConnectionProvider provider = new PooledConnectionProvider(JedisURIHelper.getHostAndPort(uri),
                config(uri, null, timeouts), pool);
        return new UnifiedJedis(provider, 3, Duration.ofSeconds(5));
    }

    private static RedisClient forServer(RedisServer server, ConnectionPoolConfig pool, RedisProtocol protocol,
            Duration timeouts) {
        URI uri = URI.create(server.uri());
        return RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(config(uri, protocol, timeouts))
                .poolConfig(pool)
                .build();
    }

    private static DefaultJedisClientConfig config(URI uri, RedisProtocol protocol, Duration timeouts) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .user(JedisURIHelper.getUser(uri))
                .password(JedisURIHelper.getPassword(uri))
                .database(JedisURIHelper.getDBIndex(uri))
                .ssl(JedisURIHelper.isRedisSSLScheme(uri));
        if (protocol != null) {
            config.protocol(protocol);
        }
        if (timeouts != null) {
            int millis = Math.toIntExact(timeouts.toMillis());
            config.connectionTimeoutMillis(millis).socketTimeoutMillis(millis).blockingSocketTimeoutMillis(millis);
        }
        return config.build();
    }

    /** A channel name no other test uses, even on a shared server. */
    static String uniqueChannel(String what) {
        return (what + "-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }
}
