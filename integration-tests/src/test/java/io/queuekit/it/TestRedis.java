package io.queuekit.it;

import io.queuekit.testing.RedisServer;
import java.time.Duration;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;

/**
 * Redis servers and clients for the fault tests. Every server is a private child process (never
 * a shared or external one), so tests may kill, stop and restart it.
 *
 * <p>The client settings are the ones the README recommends for queuekit:
 * <ul>
 *   <li>{@code connectionTimeoutMillis} and {@code socketTimeoutMillis} bound every ordinary
 *       command, so {@code send} fails fast when Redis is gone;</li>
 *   <li>{@code blockingSocketTimeoutMillis} bounds BLMOVE, BLPOP and BRPOP reads (Jedis' default 0
 *       waits forever); it must exceed the queue's block timeout. Subscriptions read with a
 *       timeout of their own, derived from the keep-alive interval;</li>
 *   <li>the pool's {@code maxWait} bounds the wait for a free connection (the default waits
 *       forever).</li>
 * </ul>
 */
final class TestRedis {
    static final int CONNECT_TIMEOUT_MILLIS = 1_000;
    static final int SOCKET_TIMEOUT_MILLIS = 1_000;
    static final int BLOCKING_SOCKET_TIMEOUT_MILLIS = 2_500;
    static final Duration POOL_MAX_WAIT = Duration.ofSeconds(2);

    private TestRedis() {}

    /** A private server this JVM controls; with {@code aof}, appendfsync always. */
    static RedisServer start(boolean aof) {
        return RedisServer.builder().appendOnly(aof).requireProcessControl().start();
    }

    static JedisClientConfig config() {
        return configBuilder().build();
    }

    static DefaultJedisClientConfig.Builder configBuilder() {
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(CONNECT_TIMEOUT_MILLIS)
                .socketTimeoutMillis(SOCKET_TIMEOUT_MILLIS)
                .blockingSocketTimeoutMillis(BLOCKING_SOCKET_TIMEOUT_MILLIS);
    }

    static ConnectionPoolConfig pool(int size) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(size);
        pool.setMaxIdle(size);
        pool.setMaxWait(POOL_MAX_WAIT);
        return pool;
    }

    /** A pooled client with the fault-friendly settings above. */
    static RedisClient client(RedisServer server, int poolSize) {
        return client(server.host(), server.port(), config(), poolSize);
    }

    static RedisClient client(String host, int port, JedisClientConfig config, int poolSize) {
        return RedisClient.builder().hostAndPort(host, port).clientConfig(config).poolConfig(pool(poolSize)).build();
    }
}
