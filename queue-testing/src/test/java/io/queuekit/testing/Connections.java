package io.queuekit.testing;

import java.net.URI;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/** Test connections to a server through its public {@link RedisServer#uri()}, as a user would connect. */
final class Connections {

    private Connections() {}

    static Jedis connect(RedisServer server) {
        return new Jedis(
                URI.create(server.uri()),
                DefaultJedisClientConfig.builder()
                        .autoNegotiateProtocol(false)
                        .connectionTimeoutMillis(2_000)
                        .socketTimeoutMillis(5_000)
                        .build());
    }

    static String ping(RedisServer server) {
        try (Jedis jedis = connect(server)) {
            return jedis.ping();
        }
    }

    static LocalProcess local(RedisServer server) {
        return (LocalProcess) server.backend();
    }
}
