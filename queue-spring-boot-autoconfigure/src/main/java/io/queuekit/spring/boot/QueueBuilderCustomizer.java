package io.queuekit.spring.boot;

/**
 * Changes the builder of a Redis queue or broadcaster that the starter makes from
 * {@code queuekit.queues.<name>.*}, after the properties are applied and before it is built: for
 * the settings the properties do not cover (a delay queue's {@code replicas}, a broadcaster's
 * {@code onGap}). Every bean of this type is called for every queue, in {@code @Order}; not called
 * with {@code queuekit.transport=in-memory}.
 */
@FunctionalInterface
public interface QueueBuilderCustomizer {
    /**
     * Customizes one queue's builder.
     *
     * @param queue the queue's name, the key under {@code queuekit.queues}
     * @param builder a {@code RedisListQueue.Builder}, {@code RedisDelayQueue.Builder},
     *     {@code RedisBroadcaster.Builder} or {@code RedisStreamTopic.Builder}, as the queue's type
     *     says
     */
    void customize(String queue, Object builder);
}
