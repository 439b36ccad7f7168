package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;
import io.queuekit.testing.RedisSentinelGroup;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisSentinelClient;

/**
 * The shared Broadcaster contract on a primary and replica behind three Sentinels, through a
 * Sentinel client: subscriptions borrow connections of the current primary's pool.
 */
class RedisBroadcasterSentinelContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static RedisSentinelClient client;
    private static RedisSentinelClient shortTimeouts;

    @BeforeAll
    static void connect() {
        client = RedisSentinelGroup.shared().client();
        shortTimeouts = RedisSentinelGroup.shared().client(settings -> settings.timeouts(SHORT));
    }

    @AfterAll
    static void disconnect() {
        client.close();
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
