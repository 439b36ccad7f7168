package io.queuekit.redis.zset;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisSentinelClient;

/**
 * The whole {@link DelayQueue} contract (and so the {@code MessageQueue} one) on a primary and
 * replica behind three Sentinels, through a Sentinel client.
 */
class RedisDelayQueueSentinelContractTest extends DelayQueueContractTest {
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
