package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.UnifiedJedis;

/**
 * The contract on a plain {@link UnifiedJedis}, a client whose pools a subscription cannot reach:
 * Jedis lends each subscription its connection, read with the client's blocking timeout. The idle
 * test follows the rule the Javadoc gives for such clients: a keep-alive interval well within
 * that timeout.
 */
class RedisBroadcasterPlainClientContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static UnifiedJedis client;
    private static UnifiedJedis shortTimeouts;

    @BeforeAll
    static void connect() {
        // a plain client's subscriptions read with its blocking timeout: 0 (forever) or above the keep-alive
        client = RedisClients.builder(RedisServer.shared())
                .blockingSocketTimeout(Duration.ZERO)
                .buildPlain();
        shortTimeouts =
                RedisClients.builder(RedisServer.shared()).timeouts(SHORT).buildPlain();
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
        RedisBroadcaster<String> b = RedisBroadcaster.builder(shortTimeouts, channel, Codec.utf8())
                .keepAliveInterval(SHORT.dividedBy(4))
                .build();
        return new IdleSetup(b, SHORT, b::reconnects);
    }
}
