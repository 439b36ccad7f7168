package io.queuekit.redis.zset;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.RedisClient;

/**
 * The whole {@link DelayQueue} contract on a delay queue of three shards on one Redis: spread in
 * turn (no order promised), or by key where the test asks for one (order per key).
 */
@RedisServerTest
class RedisDelayQueueShardedContractTest extends DelayQueueContractTest {
    private final RedisClient client;

    RedisDelayQueueShardedContractTest(RedisClient client) {
        this.client = client;
    }

    @Override
    protected DelayQueue<String> createQueue(String name, QueueConfig config) {
        RedisDelayQueue.Builder<String> b = RedisDelayQueue.builder(client, name, config.codec())
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
