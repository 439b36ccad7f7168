package io.queuekit.redis.stream;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/** The whole {@code MessageQueue} contract, on one group of a topic, on a real Redis. */
@RedisServerTest
class RedisStreamGroupContractTest extends ConsumerGroupContractTest {
    private final UnifiedJedis client;

    RedisStreamGroupContractTest(UnifiedJedis client) {
        this.client = client;
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
