package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.testing.RedisServer;
import io.queuekit.tck.BroadcasterContractTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClient;

/** The shared Broadcaster contract, against a real Redis. */
class RedisBroadcasterContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static RedisClient client;
    private static RedisClient shortTimeouts;

    @BeforeAll
    static void connect() {
        client = Clients.forServer(RedisServer.shared());
        shortTimeouts = Clients.withTimeouts(RedisServer.shared(), null, SHORT);
    }

    @AfterAll
    static void disconnect() {
        client.close();
        shortTimeouts.close();
    }

    @Override
    protected Broadcaster<String> createBroadcaster(String channel) {
        return RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
    }

    @Override
    protected IdleSetup idleSetup(String channel) {
        RedisBroadcaster<String> b = RedisBroadcaster.builder(shortTimeouts, channel, Codec.utf8()).build();
        return new IdleSetup(b, SHORT, b::reconnects);
    }
}
