package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.RedisClient;

/**
 * The whole {@link MessageQueue} contract on a list queue of three shards on one Redis: spread in
 * turn (no order promised), or by key where the test asks for one (order per key).
 */
@RedisServerTest
class RedisListQueueShardedContractTest extends MessageQueueContractTest {
    private final RedisClient client;

    RedisListQueueShardedContractTest(RedisClient client) {
        this.client = client;
    }

    @Override
    protected MessageQueue<String> createQueue(String name, QueueConfig config) {
        RedisListQueue.Builder<String> b = RedisListQueue.builder(client, name, config.codec())
                .shards(3)
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations());
        if (config.key() != null) {
            b.shardBy(config.key());
        }
        return b.build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }
}
