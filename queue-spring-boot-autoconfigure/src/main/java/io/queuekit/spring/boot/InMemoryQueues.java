package io.queuekit.spring.boot;

import io.queuekit.Codec;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.inmemory.InMemoryTopic;
import io.queuekit.internal.Checks;
import io.queuekit.redis.internal.RedisBroadcastSettings;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.RedisQueueSettings;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import io.queuekit.spring.boot.QueuekitProperties.Queue;
import java.time.Clock;

/**
 * The in-memory queues of {@code queuekit.transport=in-memory}, with the settings that mean the same
 * in memory (visibility timeout, attempts, dead letters, payload limit, guarantee, a broadcast's
 * buffer capacity as its inbox capacity, a stream's max length, the consumer settings); the
 * Redis-only ones (key prefix, block timeout, shards, a broadcast's buffer bytes and keep-alive, a
 * stream's max age and hard max length) have no effect, but are checked as on Redis, so that one
 * set of properties serves both and a test fails where production would.
 * Only this class names the in-memory transport, which is an optional dependency.
 */
final class InMemoryQueues {
    private InMemoryQueues() {}

    static boolean available() {
        return org.springframework.util.ClassUtils.isPresent(
                "io.queuekit.inmemory.InMemoryMessageQueue", InMemoryQueues.class.getClassLoader());
    }

    static <T> Object create(
            Definition queue, Codec<T> codec, QueueMetrics metrics, MessageObservations observations, Clock clock) {
        if (!available()) {
            throw new QueueConfigurationException(
                    "queuekit.transport=in-memory, but io.queuekit:queue-inmemory is not " + "on the classpath",
                    "Add the dependency io.queuekit:queue-inmemory (at test scope for tests).");
        }
        Queue s = queue.settings();
        checkRedisOnlySettings(queue);
        if (queue.type() == QueuekitProperties.Type.STREAM) {
            InMemoryTopic.Builder<T> b = InMemoryTopic.<T>builder(queue.name())
                    .codec(codec)
                    .metrics(metrics)
                    .observations(observations)
                    .clock(clock);
            QueueFactory.set(queue, "visibility-timeout", s.getVisibilityTimeout(), b::visibilityTimeout);
            QueueFactory.set(queue, "max-attempts", s.getMaxAttempts(), b::maxAttempts);
            QueueFactory.set(queue, "dead-letter-retention", s.getDeadLetterRetention(), b::deadLetterRetention);
            QueueFactory.set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
            QueueFactory.set(queue, "stream.max-length", s.getStream().getMaxLength(), b::maxLength);
            return b.build();
        }
        if (queue.type() == QueuekitProperties.Type.BROADCAST) {
            InMemoryBroadcaster.Builder<T> b = InMemoryBroadcaster.<T>builder(queue.name())
                    .codec(codec)
                    .metrics(metrics)
                    .observations(observations);
            QueueFactory.set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
            QueueFactory.set(
                    queue, "broadcast.buffer-capacity", s.getBroadcast().getBufferCapacity(), b::inboxCapacity);
            return b.build();
        }
        if (queue.type() == QueuekitProperties.Type.DELAY) {
            InMemoryDelayQueue.Builder<T> b = InMemoryDelayQueue.<T>builder(queue.name())
                    .codec(codec)
                    .metrics(metrics)
                    .observations(observations)
                    .clock(clock);
            QueueFactory.set(queue, "visibility-timeout", s.getVisibilityTimeout(), b::visibilityTimeout);
            QueueFactory.set(queue, "max-attempts", s.getMaxAttempts(), b::maxAttempts);
            QueueFactory.set(queue, "dead-letter-retention", s.getDeadLetterRetention(), b::deadLetterRetention);
            QueueFactory.set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
            return b.build();
        }
        InMemoryMessageQueue.Builder<T> b = InMemoryMessageQueue.<T>builder(queue.name())
                .codec(codec)
                .metrics(metrics)
                .observations(observations)
                .clock(clock);
        QueueFactory.set(queue, "visibility-timeout", s.getVisibilityTimeout(), b::visibilityTimeout);
        QueueFactory.set(queue, "max-attempts", s.getMaxAttempts(), b::maxAttempts);
        QueueFactory.set(queue, "dead-letter-retention", s.getDeadLetterRetention(), b::deadLetterRetention);
        QueueFactory.set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
        QueueFactory.set(queue, "guarantee", s.getGuarantee(), b::guarantee);
        return b.build();
    }

    /** The settings that mean nothing in memory, refused as the Redis builders refuse them. */
    private static void checkRedisOnlySettings(Definition queue) {
        Queue s = queue.settings();
        QueueFactory.set(queue, "key-prefix", s.getKeyPrefix(), prefix -> RedisKeys.of(prefix, queue.name()));
        QueueFactory.set(queue, "block-timeout", s.getBlockTimeout(), RedisQueueSettings::checkBlockTimeout);
        QueueFactory.set(queue, "shards", s.getShards(), RedisQueueSettings::checkShards);
        QueueFactory.set(
                queue,
                "broadcast.buffer-bytes",
                s.getBroadcast().getBufferBytes(),
                RedisBroadcastSettings::checkBufferBytes);
        QueueFactory.set(
                queue,
                "broadcast.keep-alive-interval",
                s.getBroadcast().getKeepAliveInterval(),
                RedisBroadcastSettings::checkKeepAliveInterval);
        // as RedisStreamTopic.Builder's maxAge and hardMaxLength check them
        QueueFactory.set(queue, "stream.max-age", s.getStream().getMaxAge(), age -> Checks.positive(age, "max age"));
        QueueFactory.set(queue, "stream.hard-max-length", s.getStream().getHardMaxLength(), hard -> {
            if (hard < 1) {
                throw new IllegalArgumentException("hard max length must be positive: " + hard);
            }
        });
    }
}
