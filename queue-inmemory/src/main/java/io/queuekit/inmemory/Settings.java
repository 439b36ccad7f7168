package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.Semantics;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterRetention;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.internal.Payloads;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/** What the builders collect, checked as it is set; defaults are those of the Redis transports. */
final class Settings<T> {
    static final Duration DEFAULT_VISIBILITY_TIMEOUT = Duration.ofSeconds(30);
    static final int DEFAULT_MAX_ATTEMPTS = 5;
    static final int MAX_MAX_ATTEMPTS = 1000;
    static final int DEFAULT_CLAIM_BATCH = 100;

    final String name;
    Clock clock = Clock.systemUTC();
    Duration visibilityTimeout = DEFAULT_VISIBILITY_TIMEOUT;
    int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    int deadLetterRetention = DeadLetterRetention.DEFAULT;
    Codec<T> codec;
    int maxPayloadBytes = PayloadLimit.DEFAULT_BYTES;
    int claimBatch = DEFAULT_CLAIM_BATCH;
    Semantics.Guarantee guarantee = Semantics.Guarantee.AT_LEAST_ONCE;
    QueueMetrics metrics = QueueMetrics.NONE;
    MessageObservations observations = MessageObservations.NONE;

    Settings(String name) {
        this.name = Checks.name(name);
    }

    /** A copy of {@code from} under another name, which the caller checked. */
    private Settings(String name, Settings<T> from) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = from.clock;
        this.visibilityTimeout = from.visibilityTimeout;
        this.maxAttempts = from.maxAttempts;
        this.deadLetterRetention = from.deadLetterRetention;
        this.codec = from.codec;
        this.maxPayloadBytes = from.maxPayloadBytes;
        this.claimBatch = from.claimBatch;
        this.guarantee = from.guarantee;
        this.metrics = from.metrics;
        this.observations = from.observations;
    }

    /**
     * These settings for a topic's group named {@code name} (checked by the topic); a
     * subscription's group reports to no metrics and no observations of its own, since its
     * subscription reports as a broadcast.
     */
    Settings<T> forGroup(String name, boolean subscription) {
        Settings<T> s = new Settings<>(name, this);
        if (subscription) {
            s.metrics = QueueMetrics.NONE;
            s.observations = MessageObservations.NONE;
        }
        return s;
    }

    void clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    void visibilityTimeout(Duration timeout) {
        // the Redis transports' bounds, so a test cannot pass here with a value Redis refuses
        this.visibilityTimeout =
                Checks.between(timeout, Duration.ofMillis(10), Duration.ofHours(12), "visibility timeout");
    }

    void maxAttempts(int attempts) {
        this.maxAttempts = Checks.inRange(attempts, 1, MAX_MAX_ATTEMPTS, "max attempts");
    }

    // the Redis transports' bounds, so that a test cannot pass here with a value Redis refuses, or fail with one it
    // takes
    void deadLetterRetention(int retention) {
        this.deadLetterRetention = DeadLetterRetention.check(retention);
    }

    void claimBatch(int messages) {
        this.claimBatch = Checks.inRange(messages, 1, 10_000, "claim batch");
    }

    void codec(Codec<T> codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    void maxPayloadBytes(int bytes) {
        this.maxPayloadBytes = PayloadLimit.maxPayloadBytes(bytes);
    }

    void guarantee(Semantics.Guarantee guarantee) {
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
    }

    void metrics(QueueMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    void observations(MessageObservations observations) {
        this.observations = Objects.requireNonNull(observations, "observations");
    }

    private static final AtomicLong INSTANCES = new AtomicLong();

    /**
     * The metrics namespace of a new queue or broadcaster: {@code jvm-<n>}, since two of them
     * named alike in one JVM are two queues, unlike two objects of one Redis queue.
     */
    static String metricsNamespace() {
        return "jvm-" + INSTANCES.incrementAndGet();
    }

    Payloads<T> bodies() {
        return new Payloads<>(codec, maxPayloadBytes, name);
    }
}
