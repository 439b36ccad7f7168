package io.queuekit;

import io.queuekit.internal.Checks;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How {@link MessageQueue#consume(MessageHandler, ConsumeOptions)} runs a handler: how many worker
 * threads, how long to wait before retrying a failed message, and how many messages a worker
 * fetches in one round trip, how long a running handler's lease is kept alive, and how long a
 * close waits for running handlers. Immutable and thread-safe; build with {@link #builder()}, or
 * use {@link #defaults()} (one worker, retries after 1 s doubling up to 5 min, one message per
 * fetch while none wait and more while they do ({@link #adaptiveBatch()}), leases renewed for up to
 * 30 min, 30 s to finish on close).
 */
public final class ConsumeOptions {
    private final int concurrency;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final int batchSize;
    private final boolean adaptiveBatch;
    private final Duration pollTimeout;
    private final Duration leaseRenewalLimit;
    private final Duration shutdownTimeout;
    private final ThreadFactory threadFactory;

    private ConsumeOptions(Builder b) {
        this.concurrency = b.concurrency;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.batchSize = b.batchSize;
        this.adaptiveBatch = !b.batchSizeSet;
        this.pollTimeout = b.pollTimeout;
        this.leaseRenewalLimit = b.leaseRenewalLimit;
        this.shutdownTimeout = b.shutdownTimeout;
        this.threadFactory = b.threadFactory;
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

    /**
     * Most messages a worker fetches per round trip; they are handled one after the other. 1 unless
     * set; see {@link #adaptiveBatch()}.
     */
    public int batchSize() {
        return batchSize;
    }

    /**
     * Whether workers choose how many to fetch, as they do unless {@link Builder#batchSize} was
     * set: one at a time (each ack travelling with the next fetch where the transport can), and,
     * while messages wait (fetches come back full at once), more per fetch, doubling up to 32 but
     * never more than about 2 ms of work by the handler's recent pace, so a slow handler still takes one at a time and leaves
     * the rest to other consumers. Messages fetched together are held (their leases kept alive)
     * and acked together, as in a batch.
     */
    public boolean adaptiveBatch() {
        return adaptiveBatch;
    }

    /**
     * How long one blocking fetch waits before the worker checks whether it was stopped. Workers
     * block in the transport meanwhile; they do not spin.
     */
    public Duration pollTimeout() {
        return pollTimeout;
    }

    /**
     * How long the leases of the messages a worker holds are renewed: a handler running longer than
     * the queue's visibility timeout keeps its message (it is not handed to another consumer) until
     * this much time has passed since the message was fetched. Past it renewal stops, the lease
     * lapses, and the message is handed out again while the handler may still run; a handler that
     * hangs therefore cannot hold a message for good.
     */
    public Duration leaseRenewalLimit() {
        return leaseRenewalLimit;
    }

    /**
     * How long closing waits for running handlers. {@link Subscription#close()}, and
     * {@link MessageQueue#close()} for every consumer of the queue, stop fetching, let the handlers
     * that run finish and settle (ack, retry or dead-letter) within this time, and only then close.
     * Handlers still running when it ends are interrupted and can no longer settle; their messages
     * come back after their lease (at-least-once).
     */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * Where the worker threads come from, or null (the default): daemon platform threads. The
     * consumer names each thread it gets ({@code queuekit-<queue>-consumer-<n>}), makes it a
     * daemon and starts it.
     */
    public ThreadFactory threadFactory() {
        return threadFactory;
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
                + ", maxBackoff=" + maxBackoff + ", batchSize=" + (adaptiveBatch ? "adaptive" : batchSize)
                + ", pollTimeout=" + pollTimeout + ", leaseRenewalLimit=" + leaseRenewalLimit
                + ", shutdownTimeout=" + shutdownTimeout
                + (threadFactory == null ? "" : ", threadFactory=" + threadFactory) + "]";
    }

    /** Builds {@link ConsumeOptions}; each setter checks its argument at once. */
    public static final class Builder {
        private int concurrency = 1;
        private Duration initialBackoff = Duration.ofSeconds(1);
        private Duration maxBackoff = Duration.ofMinutes(5);
        private int batchSize = 1;
        private boolean batchSizeSet;
        private Duration pollTimeout = Duration.ofSeconds(1);
        private Duration leaseRenewalLimit = Duration.ofMinutes(30);
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private ThreadFactory threadFactory;

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

        /**
         * Messages fetched per round trip, 1 to 10,000, always: no {@link #adaptiveBatch()}. 1 makes
         * a worker fetch one at a time whether or not others wait.
         */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1 || batchSize > 10_000) {
                throw new IllegalArgumentException("batch size must be 1 to 10000: " + batchSize);
            }
            this.batchSize = batchSize;
            this.batchSizeSet = true;
            return this;
        }

        /** Longest single blocking fetch, 1 ms to 60 s. */
        public Builder pollTimeout(Duration pollTimeout) {
            this.pollTimeout =
                    Checks.between(pollTimeout, Duration.ofMillis(1), Duration.ofSeconds(60), "poll timeout");
            return this;
        }

        /** How long a held message's lease is renewed, counted from its fetch: 0 (never) to 7 days. */
        public Builder leaseRenewalLimit(Duration limit) {
            this.leaseRenewalLimit = Checks.between(limit, Duration.ZERO, Duration.ofDays(7), "lease renewal limit");
            return this;
        }

        /** How long closing waits for running handlers to finish and settle: 0 to 1 day. */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Checks.between(timeout, Duration.ZERO, Duration.ofDays(1), "shutdown timeout");
            return this;
        }

        /**
         * Makes the worker threads with {@code factory} rather than as daemon platform threads: a
         * factory of virtual threads ({@code Thread.ofVirtual().factory()}, Java 21 and later) runs
         * the handlers on virtual threads. The factory must return a new, unstarted thread; the
         * consumer names it, makes it a daemon and starts it.
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
            return this;
        }

        public ConsumeOptions build() {
            return new ConsumeOptions(this);
        }
    }
}
