package io.queuekit.it;

import io.queuekit.Codec;
import io.queuekit.MessageQueue;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.util.function.UnaryOperator;
import redis.clients.jedis.UnifiedJedis;

/** The Redis queue transports, built the same way for tests that run on each. */
enum Transport {
    LIST_AT_LEAST_ONCE,
    LIST_AT_MOST_ONCE,
    ZSET;

    /** A queue of this transport; {@code settings} adjusts the shared builder settings. */
    <T> MessageQueue<T> build(
            UnifiedJedis client, String name, Codec<T> codec, UnaryOperator<RedisQueueBuilder<T, ?>> settings) {
        switch (this) {
            case LIST_AT_LEAST_ONCE: {
                RedisListQueue.Builder<T> b = RedisListQueue.builder(client, name, codec);
                settings.apply(b);
                return b.build();
            }
            case LIST_AT_MOST_ONCE: {
                RedisListQueue.Builder<T> b =
                        RedisListQueue.builder(client, name, codec).guarantee(Guarantee.AT_MOST_ONCE);
                settings.apply(b);
                return b.build();
            }
            default: {
                RedisDelayQueue.Builder<T> b = RedisDelayQueue.builder(client, name, codec);
                settings.apply(b);
                return b.build();
            }
        }
    }

    boolean atLeastOnce() {
        return this != LIST_AT_MOST_ONCE;
    }
}
