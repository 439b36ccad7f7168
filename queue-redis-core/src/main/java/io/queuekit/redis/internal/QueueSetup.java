package io.queuekit.redis.internal;

import io.queuekit.Codec;
import io.queuekit.redis.RedisQueueBuilder;
import java.util.Objects;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * What a {@link RedisQueueBuilder} collected, read by the queue it builds. The builder keeps its
 * state private, so that nothing of it is public API; it hands this reader to this class once,
 * when its class is initialised (the JDK's "shared secrets" pattern).
 *
 * @param client the caller's client, which the queue never closes
 * @param codec the payload codec
 * @param settings the validated settings
 * @param shards how many shards hold the queue: 1 (unsharded) to {@link Sharding#MAX_SHARDS}
 * @param shardBy the key that picks a message's shard; null to spread messages in turn
 * @param <T> the payload type
 */
public record QueueSetup<T>(
        UnifiedJedis client, Codec<T> codec, RedisQueueSettings settings, int shards, Function<? super T, ?> shardBy) {

    private static volatile Function<RedisQueueBuilder<?, ?>, QueueSetup<?>> reader;

    public QueueSetup {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(settings, "settings");
        if (shards < 1 || shards > Sharding.MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be 1 to " + Sharding.MAX_SHARDS + ": " + shards);
        }
    }

    /** Whether the queue is sharded: more than one shard. */
    public boolean sharded() {
        return shards > 1;
    }

    /** How messages go to shards; only for a sharded queue. */
    public Sharding<T> sharding() {
        return new Sharding<>(shards, shardBy);
    }

    /** Called by {@link RedisQueueBuilder}'s class initialiser, and only there. */
    public static void readBuildersWith(Function<RedisQueueBuilder<?, ?>, QueueSetup<?>> builderReader) {
        if (reader != null) {
            throw new IllegalStateException("builders already have a reader");
        }
        reader = Objects.requireNonNull(builderReader, "builderReader");
    }

    /** What {@code builder} collected, validated. */
    @SuppressWarnings("unchecked")
    public static <T> QueueSetup<T> of(RedisQueueBuilder<T, ?> builder) {
        // an instance exists, so its class (whose initialiser sets the reader) is initialised
        return (QueueSetup<T>) reader.apply(builder);
    }
}
