package io.queuekit.redis.list;

import io.queuekit.MessageQueue;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/**
 * The whole {@link MessageQueue} contract on a list queue of three shards, one on each master of a
 * three-master Redis Cluster, through a cluster client.
 */
class RedisListQueueShardedClusterContractTest extends MessageQueueContractTest {
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
