package io.queuekit.redis.pubsub;

import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/** The builder's choices that every subscription of one broadcaster shares. */
record Settings(
        Duration subscribeTimeout,
        Duration initialBackoff,
        Duration maxBackoff,
        int bufferCapacity,
        Duration keepAliveInterval,
        Duration closeTimeout,
        Consumer<? super RedisBroadcaster.GapEvent> onGap,
        Clock clock,
        QueueMetrics.Observer observer) {
}
