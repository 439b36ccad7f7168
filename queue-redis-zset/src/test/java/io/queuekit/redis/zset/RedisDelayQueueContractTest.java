package io.queuekit.redis.zset;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/** The whole {@link DelayQueue} contract (and so the {@code MessageQueue} one) on a real Redis. */
@RedisServerTest
class RedisDelayQueueContractTest extends DelayQueueContractTest {
    private final UnifiedJedis client;

    RedisDelayQueueContractTest(UnifiedJedis client) {
        this.client = client;
    }

    @Override
    protected DelayQueue<String> createQueue(String name, QueueConfig config) {
        return RedisDelayQueue.builder(client, name, config.codec())
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
