package io.queuekit.redis.stream;

import io.queuekit.Codec;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;
import io.queuekit.testing.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/**
 * The whole {@link Topic} contract on a topic of three shards, one on each master of a
 * three-master Redis Cluster, through a cluster client.
 */
class RedisStreamTopicShardedClusterContractTest extends TopicContractTest {
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
    protected Topic<String> createTopic(String name, MessageObservations observations) {
        return RedisStreamTopic.builder(client, name, Codec.utf8())
                .shards(3)
                .observations(observations)
                .build();
    }
}
