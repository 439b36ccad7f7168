package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.redis.server.RedisServer;
import io.queuekit.tck.BroadcasterContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClient;

/** The shared Broadcaster contract, against a real Redis. */
class RedisBroadcasterContractTest extends BroadcasterContractTest {
    private static RedisClient client;

    @BeforeAll
    static void connect() {
        client = Clients.forServer(RedisServer.shared());
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @Override
    protected Broadcaster<String> createBroadcaster(String channel) {
        return RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
    }
}
