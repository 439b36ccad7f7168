package io.queuekit.redis.stream;

import io.queuekit.Codec;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/** The whole {@link Topic} contract (and so the Broadcaster one) on a real Redis. */
@RedisServerTest
class RedisStreamTopicContractTest extends TopicContractTest {
    private final UnifiedJedis client;

    RedisStreamTopicContractTest(UnifiedJedis client) {
        this.client = client;
    }

    @Override
    protected Topic<String> createTopic(String name, MessageObservations observations) {
        return RedisStreamTopic.builder(client, name, Codec.utf8())
                .observations(observations)
                .build();
    }
}
