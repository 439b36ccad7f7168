package io.queuekit.redis.stream;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisSentinelClient;

/** The whole {@code MessageQueue} contract, on one group of a topic, on a primary and replica behind three Sentinels, through a Sentinel client. */
class RedisStreamGroupSentinelContractTest extends ConsumerGroupContractTest {
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
    protected Topic<String> createTopic(String name, QueueConfig config) {
        return RedisStreamTopic.builder(client, name, config.codec())
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations())
                .build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }
}
