package io.queuekit.redis.internal;

import io.queuekit.internal.Checks;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;

/**
 * The settings every Redis queue shares, as validated by
 * {@link io.queuekit.redis.RedisQueueBuilder}.
 *
 * @param keys key names of the queue, or of one of its shards
 * @param visibilityTimeout lease of a delivery before it is handed out again
 * @param maxAttempts deliveries of one message before an expired lease dead-letters it
 * @param deadLetterRetention most dead letters kept; the oldest are dropped beyond it
 * @param maxPayloadBytes largest encoded payload accepted
 * @param blockTimeout longest single blocking command; bounds how long a dead connection, an
 *     interrupt or a close goes unnoticed
 * @param claimBatch most messages one fetch script returns
 * @param metrics where the queue reports what it does
 * @param observations what every send and every managed consumer's handling runs inside
 * @param replicas replicas that must hold a send, schedule, ack, retry, dead-letter or cancel
 *     before it returns
 */
public record RedisQueueSettings(
        RedisKeys keys,
        Duration visibilityTimeout,
        int maxAttempts,
        int deadLetterRetention,
        int maxPayloadBytes,
        Duration blockTimeout,
        int claimBatch,
        QueueMetrics metrics,
        MessageObservations observations,
        Replicas replicas) {

    /** Longest and shortest block timeout a Redis queue accepts. */
    public static Duration checkBlockTimeout(Duration blockTimeout) {
        return Checks.between(blockTimeout, Duration.ofMillis(10), Duration.ofSeconds(10), "block timeout");
    }

    /** Shard counts a Redis queue accepts: 1 (unsharded) to {@link Sharding#MAX_SHARDS}. */
    public static int checkShards(int shards) {
        return Checks.inRange(shards, 1, Sharding.MAX_SHARDS, "shards");
    }

    /** These settings for the keys {@code shardKeys} (one shard of the queue). */
    public RedisQueueSettings withKeys(RedisKeys shardKeys) {
        return new RedisQueueSettings(
                shardKeys,
                visibilityTimeout,
                maxAttempts,
                deadLetterRetention,
                maxPayloadBytes,
                blockTimeout,
                claimBatch,
                metrics,
                observations,
                replicas);
    }
}
