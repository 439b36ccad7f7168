package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.UnifiedJedis;

/** The shared Broadcaster contract, against a real Redis. */
@RedisServerTest
class RedisBroadcasterContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static UnifiedJedis shortTimeouts;
    private final UnifiedJedis client;

    RedisBroadcasterContractTest(UnifiedJedis client) {
        this.client = client;
    }

    @BeforeAll
    static void connect(RedisServer server) {
        shortTimeouts = RedisClients.builder(server).timeouts(SHORT).buildPooled();
    }

    @AfterAll
    static void disconnect() {
        shortTimeouts.close();
    }

    @Override
    protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
        return RedisBroadcaster.builder(client, channel, Codec.utf8())
                .observations(observations)
                .build();
    }

    @Override
    protected IdleSetup idleSetup(String channel) {
        RedisBroadcaster<String> b =
                RedisBroadcaster.builder(shortTimeouts, channel, Codec.utf8()).build();
        return new IdleSetup(b, SHORT, b::reconnects);
    }
}
