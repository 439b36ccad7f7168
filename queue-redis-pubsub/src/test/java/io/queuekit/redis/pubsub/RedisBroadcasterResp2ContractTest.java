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
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;

/**
 * The contract again over RESP2, where Jedis handles subscribed connections differently from the
 * RESP3 it negotiates by default.
 */
class RedisBroadcasterResp2ContractTest extends BroadcasterContractTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static RedisClient client;
    private static RedisClient shortTimeouts;

    @BeforeAll
    static void connect() {
        client = RedisClients.builder(RedisServer.shared())
                .protocol(RedisProtocol.RESP2)
                .build();
        shortTimeouts = RedisClients.builder(RedisServer.shared())
                .protocol(RedisProtocol.RESP2)
                .timeouts(SHORT)
                .build();
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
