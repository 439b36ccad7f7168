package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;
import io.queuekit.testing.RedisCluster;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/** The shared Broadcaster contract on a Redis Cluster of three masters, through a cluster client. */
class RedisBroadcasterClusterContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static RedisClusterClient client;
    private static RedisClusterClient shortTimeouts;

    @BeforeAll
    static void connect() {
        client = RedisCluster.shared().client();
        shortTimeouts = RedisCluster.shared().client(settings -> settings.timeouts(SHORT));
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
