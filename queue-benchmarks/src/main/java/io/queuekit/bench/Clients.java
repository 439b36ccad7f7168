package io.queuekit.bench;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/** Clients for the benchmark's Redis server, sized for the consumers a scenario runs. */
final class Clients {
    /** Connections per Jedis pool: every blocked consumer and subscriber holds one. */
    static final int POOL = 32;

    private Clients() {
    }

    static RedisClient jedis(String uri) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(POOL);
        pool.setMaxIdle(POOL);
        return RedisClient.builder().fromURI(uri).poolConfig(pool).build();
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
