package io.queuekit.redis.pubsub;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/** The builder's choices that every subscription of one broadcaster shares. */
record Settings(
        Duration subscribeTimeout,
        Duration initialBackoff,
        Duration maxBackoff,
        int bufferCapacity,
        int bufferBytes,
        Duration keepAliveInterval,
        Consumer<? super RedisBroadcaster.GapEvent> onGap,
        Clock clock) {

    /** The least time a keep-alive's answer is given, on top of the keep-alive interval. */
    static final Duration MIN_ANSWER_TIME = Duration.ofSeconds(2);

    /**
     * How long a subscribed connection may read nothing before it is taken for dead: the
     * keep-alive interval (a healthy connection hears at least the answer to a keep-alive within
     * it), plus the same again, at least {@link #MIN_ANSWER_TIME}, for that answer to arrive.
     */
    Duration deadAfter() {
        return keepAliveInterval.plus(
                keepAliveInterval.compareTo(MIN_ANSWER_TIME) > 0 ? keepAliveInterval : MIN_ANSWER_TIME);
    }

    int deadAfterMillis() {
        return Math.toIntExact(deadAfter().toMillis());
    }

    /** How often a subscription checks whether to send a keep-alive: a quarter interval, 1 ms to 1 s. */
    long checkPeriodNanos() {
        long quarter = keepAliveInterval.toNanos() / 4;
        return Math.max(
                Duration.ofMillis(1).toNanos(), Math.min(Duration.ofSeconds(1).toNanos(), quarter));
    }
}
