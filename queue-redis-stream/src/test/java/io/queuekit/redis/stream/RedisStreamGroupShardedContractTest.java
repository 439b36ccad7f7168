package io.queuekit.redis.stream;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.testing.RedisServerTest;
import redis.clients.jedis.UnifiedJedis;

/**
 * The whole {@code MessageQueue} contract, on one group of a topic of three shards on one Redis:
 * spread in turn (no order promised), or by key where the test asks for one (order per key).
 */
@RedisServerTest
class RedisStreamGroupShardedContractTest extends ConsumerGroupContractTest {
    private final UnifiedJedis client;

    RedisStreamGroupShardedContractTest(UnifiedJedis client) {
        this.client = client;
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
