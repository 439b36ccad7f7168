package io.queuekit.redis.stream;

import io.queuekit.Codec;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;
import io.queuekit.testing.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.RedisClusterClient;

/** The whole {@link Topic} contract (and so the Broadcaster one) on a Redis Cluster of three masters, through a cluster client. */
class RedisStreamTopicClusterContractTest extends TopicContractTest {
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
                .observations(observations)
                .build();
    }
}
