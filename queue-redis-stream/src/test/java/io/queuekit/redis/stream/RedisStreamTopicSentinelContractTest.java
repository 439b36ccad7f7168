package io.queuekit.redis.stream;

import io.queuekit.Codec;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;
import io.queuekit.testing.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisSentinelClient;

/** The whole {@link Topic} contract (and so the Broadcaster one) on a primary and replica behind three Sentinels, through a Sentinel client. */
class RedisStreamTopicSentinelContractTest extends TopicContractTest {
    private static RedisSentinelClient client;

    @BeforeAll
    static void connect() {
        client = RedisSentinelGroup.shared().client();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @Override
    protected Topic<String> createTopic(String name, MessageObservations observations) {
        return RedisStreamTopic.builder(client, name, Codec.utf8())
                .observations(observations)
                .build();
    }
}
