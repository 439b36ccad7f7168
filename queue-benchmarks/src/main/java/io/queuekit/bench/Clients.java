package io.queuekit.bench;

import java.net.URI;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Clients for the benchmark's Redis server, sized for the consumers a scenario runs. Each library is
 * configured as an application would run it, the same Jedis client for queuekit and the Jedis peers,
 * and Redisson with its defaults; so this stays here rather than using queue-testing's
 * {@code RedisClients}, whose settings are chosen for tests.
 */
final class Clients {
    /** Connections per Jedis pool: every blocked consumer and subscriber holds one. */
    static final int POOL = 32;
    /**
     * Above the longest blocking command of a run (queuekit's 1 s block timeout, the Jedis peer's 1 s
     * BRPOP), as queuekit's Javadoc asks: Jedis' default of 0 would let a dead connection hang a run.
     */
    static final int BLOCKING_SOCKET_TIMEOUT_MILLIS = 2_500;

    private Clients() {}

    static RedisClient jedis(String uri) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(POOL);
        pool.setMaxIdle(POOL);
        // what the builder's deprecated fromURI read from the URI, set explicitly
        URI u = URI.create(uri);
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .blockingSocketTimeoutMillis(BLOCKING_SOCKET_TIMEOUT_MILLIS)
                .user(JedisURIHelper.getUser(u))
                .password(JedisURIHelper.getPassword(u));
        if (JedisURIHelper.hasDbIndex(u)) {
            config.database(JedisURIHelper.getDBIndex(u));
        }
        if (JedisURIHelper.isRedisSSLScheme(u)) {
            config.sslOptions(SslOptions.defaults());
        }
        return RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(u))
                .clientConfig(config.build())
                .poolConfig(pool)
                .build();
    }

    /**
     * Redisson with its defaults except the codec: plain strings, the same bytes queuekit's UTF-8
     * codec stores, so memory and speed compare like for like.
     */
    static RedissonClient redisson(String uri) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(uri);
        return Redisson.create(config);
    }
}
