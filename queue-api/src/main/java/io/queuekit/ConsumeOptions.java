package io.queuekit;

import io.queuekit.spi.Checks;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link MessageQueue#consume(MessageHandler, ConsumeOptions)} runs a handler: how many worker
 * threads, how long to wait before retrying a failed message, and how many messages a worker
 * fetches in one round trip. Immutable and thread-safe; build with {@link #builder()}, or use
 * {@link #defaults()} (one worker, retries after 1 s doubling up to 5 min, batches of one).
 */
public final class ConsumeOptions {
    private final int concurrency;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final int batchSize;
    private final Duration pollTimeout;

    private ConsumeOptions(Builder b) {
        this.concurrency = b.concurrency;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.batchSize = b.batchSize;
        this.pollTimeout = b.pollTimeout;
    }

    public static ConsumeOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Number of worker threads. */
    public int concurrency() {
        return concurrency;
    }

    /** Delay before the first retry of a message whose handler threw. */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /** Longest delay between retries. */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /** Most messages a worker fetches per round trip; they are handled one after the other. */
    public int batchSize() {
        return batchSize;
    }

    /**
     * How long one blocking fetch waits before the worker checks whether it was stopped. Workers
     * block in the transport meanwhile; they do not spin.
     */
    public Duration pollTimeout() {
        return pollTimeout;
    }

    /**
     * The delay before retrying a delivery whose handler threw on attempt {@code attempt}: the
     * initial backoff doubled for every attempt after the first, capped at the maximum.
     */
    public Duration backoff(int attempt) {
        Duration d = initialBackoff;
        for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }

    @Override
    public String toString() {
        return "ConsumeOptions[concurrency=" + concurrency + ", initialBackoff=" + initialBackoff
                + ", maxBackoff=" + maxBackoff + ", batchSize=" + batchSize
                + ", pollTimeout=" + pollTimeout + "]";
    }

    /** Builds {@link ConsumeOptions}; each setter checks its argument at once. */
    public static final class Builder {
        private int concurrency = 1;
        private Duration initialBackoff = Duration.ofSeconds(1);
        private Duration maxBackoff = Duration.ofMinutes(5);
        private int batchSize = 1;
        private Duration pollTimeout = Duration.ofSeconds(1);

        private Builder() {}

        /** Worker threads, 1 to 1024. */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1 || concurrency > 1024) {
                throw new IllegalArgumentException("concurrency must be 1 to 1024: " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /** Retry backoff: first delay and cap, each 0 to 1 day; zero retries at once. */
        public Builder backoff(Duration initial, Duration max) {
            Checks.between(initial, Duration.ZERO, Duration.ofDays(1), "initial backoff");
            Checks.between(max, Duration.ZERO, Duration.ofDays(1), "max backoff");
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException(
                        "max backoff must not be below initial backoff: " + max + " < " + initial);
            }
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /** Messages fetched per round trip, 1 to 10,000. */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1 || batchSize > 10_000) {
                throw new IllegalArgumentException("batch size must be 1 to 10000: " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /** Longest single blocking fetch, 1 ms to 60 s. */
        public Builder pollTimeout(Duration pollTimeout) {
            this.pollTimeout = Checks.between(pollTimeout, Duration.ofMillis(1), Duration.ofSeconds(60), "poll timeout");
            return this;
        }

        public ConsumeOptions build() {
            return new ConsumeOptions(this);
        }

    }
}
