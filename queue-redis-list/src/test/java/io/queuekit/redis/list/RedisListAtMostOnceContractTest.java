package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.Semantics;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.RedisClient;

/** The whole {@link MessageQueue} contract on a real Redis, in the at-most-once mode. */
@RedisServerTest
class RedisListAtMostOnceContractTest extends MessageQueueContractTest {
    private final RedisClient client;

    RedisListAtMostOnceContractTest(RedisClient client) {
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
                .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                .build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }
}
