package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import org.junit.jupiter.api.AfterAll;
import redis.clients.jedis.RedisClient;

/** The whole {@link MessageQueue} contract on a real Redis, in the default at-least-once mode. */
class RedisListQueueContractTest extends MessageQueueContractTest {
    private static final RedisClient CLIENT = Clients.pooled(RedisServer.shared());

    @Override
    protected MessageQueue<String> createQueue(String name, QueueConfig config) {
        return RedisListQueue.builder(CLIENT, name, config.codec())
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
