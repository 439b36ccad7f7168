package io.queuekit.redis.stream;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/**
 * The whole {@code MessageQueue} contract, on one group of a topic of three shards, one on each
 * master of a three-master Redis Cluster, through a cluster client.
 */
class RedisStreamGroupShardedClusterContractTest extends ConsumerGroupContractTest {
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
    protected Topic<String> createTopic(String name, QueueConfig config) {
        return StreamTopics.sharded(client, name, config);
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }
}
