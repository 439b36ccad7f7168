package io.queuekit.redis.zset;

import io.queuekit.testing.RedisServer;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/** Test clients: a pool large enough for ten blocked consumers plus producers and settling calls. */
final class Clients {
    private Clients() {}

    static RedisClient pooled(RedisServer server) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        return RedisClient.builder().fromURI(server.uri()).poolConfig(pool).build();
    }
}
