package io.queuekit.redis.list;

import io.queuekit.testing.RedisServer;
import java.net.URI;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/** Test clients, connected the way the Javadoc tells users to. */
final class Clients {
    private Clients() {}

    /**
     * A pool large enough for the contract's eight concurrent consumers plus producers and
     * settling calls; blocking commands time out on the client well after the queue's block
     * timeout, so a dead server is noticed even if its sockets stay open. Credentials and database
     * come from the server's URI (an external server may have them).
     */
    static RedisClient pooled(RedisServer server) {
        URI uri = URI.create(server.uri());
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .socketTimeoutMillis(5_000)
                .blockingSocketTimeoutMillis(15_000);
        if (JedisURIHelper.getPassword(uri) != null) {
            config.user(JedisURIHelper.getUser(uri)).password(JedisURIHelper.getPassword(uri));
        }
        if (JedisURIHelper.hasDbIndex(uri)) {
            config.database(JedisURIHelper.getDBIndex(uri));
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        return RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(config.build())
                .poolConfig(pool)
                .build();
    }
}
