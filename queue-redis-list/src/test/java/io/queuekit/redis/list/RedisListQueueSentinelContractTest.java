package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisSentinelClient;

/** The whole {@link MessageQueue} contract on a primary and replica behind three Sentinels, through a Sentinel client. */
class RedisListQueueSentinelContractTest extends MessageQueueContractTest {
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
