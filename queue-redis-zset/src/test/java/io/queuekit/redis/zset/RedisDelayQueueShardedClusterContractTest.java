package io.queuekit.redis.zset;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/**
 * The whole {@link DelayQueue} contract on a delay queue of three shards, one on each master of a
 * three-master Redis Cluster, through a cluster client.
 */
class RedisDelayQueueShardedClusterContractTest extends DelayQueueContractTest {
    private static RedisClusterClient client;

    @BeforeAll
    static void connect() {
        client = RedisCluster.shared().client();
    }

    @AfterAll
    static void disconnect() {
        client.close();
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
