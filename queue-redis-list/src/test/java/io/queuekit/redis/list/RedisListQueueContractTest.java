package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/** The whole {@link MessageQueue} contract on a real Redis, in the default at-least-once mode. */
@RedisServerTest
class RedisListQueueContractTest extends MessageQueueContractTest {
    private final UnifiedJedis client;

    RedisListQueueContractTest(UnifiedJedis client) {
        this.client = client;
    }

    @Override
    protected MessageQueue<String> createQueue(String name, QueueConfig config) {
        return RedisListQueue.builder(client, name, config.codec())
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
