package io.queuekit.redis.zset;

import io.queuekit.DelayQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import org.junit.jupiter.api.AfterAll;
import redis.clients.jedis.RedisClient;

/** The whole {@link DelayQueue} contract (and so the {@code MessageQueue} one) on a real Redis. */
class RedisDelayQueueContractTest extends DelayQueueContractTest {
    private static final RedisClient CLIENT = Clients.pooled(RedisServer.shared());

    @Override
    protected DelayQueue<String> createQueue(String name, QueueConfig config) {
        return RedisDelayQueue.builder(CLIENT, name, config.codec())
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }
}
