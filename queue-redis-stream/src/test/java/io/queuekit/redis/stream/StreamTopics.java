package io.queuekit.redis.stream;

import io.queuekit.Topic;
import io.queuekit.tck.QueueConfig;
import redis.clients.jedis.UnifiedJedis;

/** Topics the sharded contract tests build. */
final class StreamTopics {
    private StreamTopics() {}

    /** A topic of three shards whose groups have the settings of {@code config}, by its key if it has one. */
    static Topic<String> sharded(UnifiedJedis client, String name, QueueConfig config) {
        RedisStreamTopic.Builder<String> b = RedisStreamTopic.builder(client, name, config.codec())
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
}
