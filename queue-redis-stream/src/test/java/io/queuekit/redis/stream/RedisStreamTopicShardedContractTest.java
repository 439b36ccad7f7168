package io.queuekit.redis.stream;

import io.queuekit.Codec;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/**
 * The whole {@link Topic} contract on a topic of three shards on one Redis, spread in turn (no
 * order promised: the tests of publish order skip).
 */
@RedisServerTest
class RedisStreamTopicShardedContractTest extends TopicContractTest {
    private final UnifiedJedis client;

    RedisStreamTopicShardedContractTest(UnifiedJedis client) {
        this.client = client;
    }

    @Override
    protected Topic<String> createTopic(String name, MessageObservations observations) {
        return RedisStreamTopic.builder(client, name, Codec.utf8())
                .shards(3)
                .observations(observations)
                .build();
    }
}
