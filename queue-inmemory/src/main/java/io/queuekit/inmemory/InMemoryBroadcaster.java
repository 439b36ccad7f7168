package io.queuekit.inmemory;

import io.queuekit.BroadcastListener;
import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.Headers;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.BroadcastDispatch;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Inbound;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.RateLimitedLog;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Broadcaster} held in this JVM's memory, standing in for Redis PUB/SUB in unit tests:
 * at-most-once, every subscriber present at publish time receives the message, nothing is kept
 * for absent subscribers, and every subscriber sees concurrent publishes in the same order. A
 * listener that throws is logged (rate-limited, as on Redis) and counted in
 * {@link #listenerFailures()}; the failed message is not delivered again.
 *
 * <p>Where it differs from Redis: a subscription whose queue is full
 * ({@link Builder#inboxCapacity(int)}, 100,000 messages unless set) drops each message published
 * meanwhile for itself alone, not counted in what {@link #publish} returns, counted in
 * {@link #droppedMessages()}, and reported to the metrics as a
 * {@linkplain QueueMetrics.Observer#gap(Duration) gap} once it takes a message again; where Redis
 * would cut the subscriber, this one keeps its place. Without a codec every subscriber receives
 * the very object published; with {@link Builder#codec(Codec)} it is encoded once and decoded for
 * each subscriber, as on Redis, and one that cannot be decoded is skipped for that subscriber and
 * counted in {@link #listenerFailures()}. Closing a subscription drops what it has not delivered
 * and waits up to 10 s for the message in hand.
 *
 * @param <T> the payload type
 */
public final class InMemoryBroadcaster<T> implements Broadcaster<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InMemoryBroadcaster.class);
    private static final Semantics SEMANTICS = new Semantics(
            "in-memory", Semantics.Guarantee.AT_MOST_ONCE, Semantics.Ordering.PUBLISH_ORDER, false, true, false);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration LOG_PERIOD = Duration.ofSeconds(10);

    /** The default {@link Builder#inboxCapacity(int)}: 100,000 messages per subscription. */
    public static final int DEFAULT_INBOX_CAPACITY = 100_000;

    private final String name;
    private final Payloads<T> bodies;
    private final BroadcastRuntime<Sub> runtime;
    private final AtomicLong dropped = new AtomicLong();
    private final int inboxCapacity;
    /** Orders publishes, and subscriptions starting and ending, so that each is one step for every subscription. */
    private final Object publishLock = new Object();

    private InMemoryBroadcaster(Settings<T> settings, int inboxCapacity) {
        this.name = settings.name;
        this.inboxCapacity = inboxCapacity;
        this.bodies = settings.bodies();
        this.runtime = new BroadcastRuntime<>(
                name,
                name,
                settings.metrics.observe(name, SEMANTICS.transport(), Settings.metricsNamespace(), null),
                settings.observations,
                SEMANTICS.transport(),
                CLOSE_TIMEOUT,
                LOG);
    }

    /**
     * A broadcaster on this channel, without a codec.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> InMemoryBroadcaster<T> create(String channel) {
        return InMemoryBroadcaster.<T>builder(channel).build();
    }

    /**
     * A builder for a broadcaster on this channel.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> Builder<T> builder(String channel) {
        return new Builder<>(channel);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * {@inheritDoc}
     *
     * @return the number of subscriptions the message was handed to (not those whose queue was
     *     full, see {@link Builder#inboxCapacity(int)})
     * @throws NullPointerException if {@code message} or {@code headers} is null
     * @throws IllegalArgumentException with a codec, if the encoded message is larger than
     *     {@link Builder#maxPayloadBytes(int)}; or if the headers with those the observations add
     *     exceed {@link Headers}' limits; nothing was published
     * @throws QueueClosedException if the broadcaster is closed
     */
    @Override
    public long publish(T message, Headers headers) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(headers, "headers");
        return runtime.sending(1, added -> {
            Inbound<Object> posted = posted(message, headers.withAll(added));
            synchronized (publishLock) {
                runtime.checkOpen();
                long n = handOut(posted);
                runtime.observer().sent(1);
                return n;
            }
        });
    }

    /**
     * {@inheritDoc} In memory the whole batch is handed out in one step, so no other publish comes
     * between its messages and no subscription starts or ends part way.
     *
     * @return for each message, the number of subscriptions it was handed to (not those whose queue
     *     was full, see {@link Builder#inboxCapacity(int)})
     * @throws NullPointerException if {@code messages} or any element is null; nothing was published
     * @throws IllegalArgumentException with a codec, if an encoded message is larger than
     *     {@link Builder#maxPayloadBytes(int)}; nothing was published
     * @throws QueueClosedException if the broadcaster is closed
     */
    @Override
    public long[] publishAll(Collection<? extends T> messages) {
        List<? extends T> copy = Checks.payloads(messages);
        if (copy.isEmpty()) {
            runtime.checkOpen(); // nothing is published, so nothing is observed
            return new long[0];
        }
        return runtime.sending(copy.size(), added -> {
            List<Inbound<Object>> batch = new ArrayList<>(copy.size());
            for (T m : copy) {
                batch.add(posted(m, added));
            }
            synchronized (publishLock) {
                runtime.checkOpen();
                long[] received = new long[batch.size()];
                for (int i = 0; i < received.length; i++) {
                    received[i] = handOut(batch.get(i));
                }
                runtime.observer().sent(received.length);
                return received;
            }
        });
    }

    /** A published body with its headers, and when it was published, for the latency metric. */
    private Inbound<Object> posted(T message, Headers headers) {
        return Inbound.message(bodies.store(message, headers), null, 0, System.nanoTime());
    }

    /** Called with publishLock held; returns how many subscriptions took it. */
    private long handOut(Inbound<Object> posted) {
        long n = 0;
        for (Sub s : runtime.members()) {
            if (s.offer(posted)) {
                n++;
            }
        }
        return n;
    }

    /**
     * {@inheritDoc}
     *
     * @throws NullPointerException if {@code listener} is null
     * @throws QueueClosedException if the broadcaster is closed
     */
    @Override
    public Subscription subscribeWithHeaders(BroadcastListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (publishLock) {
            runtime.checkOpen();
            Sub s = runtime.register(new Sub(listener, runtime.nextSubscriptionName()));
            s.dispatch.start();
            return s;
        }
    }

    @Override
    public Semantics semantics() {
        return SEMANTICS;
    }

    /** How many times a listener threw, or a message could not be decoded for it, so far. */
    public long listenerFailures() {
        return runtime.totals().listenerFailures() + runtime.totals().decodeFailures();
    }

    /**
     * How many times a message was dropped for a subscription whose queue was full, so far (one
     * message dropped for two subscriptions counts twice).
     */
    public long droppedMessages() {
        return dropped.get();
    }

    @Override
    public void close() {
        runtime.close(deadline -> {});
    }

    @Override
    public String toString() {
        return "InMemoryBroadcaster[" + name + "]";
    }

    /** One subscription: its listener side, and whether messages are being dropped for it. */
    private final class Sub implements Subscription, BroadcastRuntime.Member {
        final BroadcastDispatch<Object, T> dispatch;
        private final String threadName;
        private final RateLimitedLog dropLog = new RateLimitedLog(LOG, LOG_PERIOD);
        private volatile boolean active = true;
        /** Whether messages are being dropped for this subscription, and since when; guarded by publishLock. */
        private boolean dropping;

        private long droppingSinceNanos;

        Sub(BroadcastListener<? super T> listener, String threadName) {
            this.threadName = threadName;
            this.dispatch = new BroadcastDispatch<>(
                    runtime,
                    threadName,
                    InMemoryBroadcaster.this.name,
                    inboxCapacity,
                    Long.MAX_VALUE,
                    bodies::load,
                    bodies::headersOf,
                    (channel, message, headers) -> listener.onMessage(message, headers),
                    this::beginClose);
        }

        /** Called with publishLock held. */
        boolean offer(Inbound<Object> posted) {
            if (!active) {
                return false;
            }
            if (dispatch.offer(posted)) {
                if (dropping) {
                    dropping = false;
                    runtime.observer().gap(Duration.ofNanos(System.nanoTime() - droppingSinceNanos));
                }
                return true;
            }
            if (!dropping) {
                dropping = true;
                droppingSinceNanos = System.nanoTime();
            }
            dropped.incrementAndGet();
            long held = dropLog.tryAcquire();
            if (held >= 0) {
                LOG.warn(
                        "queuekit {}: the listener on {} is {} messages behind (inboxCapacity); dropped {} "
                                + "message(s) for it since the last report",
                        name,
                        threadName,
                        inboxCapacity,
                        held + 1);
            }
            return false;
        }

        @Override
        public boolean isActive() {
            return active;
        }

        @Override
        public void close() {
            beginClose();
            awaitTermination(System.nanoTime() + CLOSE_TIMEOUT.toNanos());
        }

        @Override
        public void beginClose() {
            synchronized (publishLock) {
                // under the lock: no publish is between its active check and its offer
                if (!active) {
                    return;
                }
                dispatch.beginClose(); // first: once inactive, its listener is handed nothing more
                active = false;
                runtime.unregister(this);
            }
        }

        @Override
        public void awaitTermination(long deadlineNanos) {
            dispatch.awaitTermination(deadlineNanos);
        }

        @Override
        public String toString() {
            return "Subscription[" + threadName + (active ? "" : ", closed") + "]";
        }
    }

    /**
     * Builds an {@link InMemoryBroadcaster}. Each setter checks its argument at once. Not
     * thread-safe.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final Settings<T> settings;
        private int inboxCapacity = DEFAULT_INBOX_CAPACITY;

        private Builder(String channel) {
            this.settings = new Settings<>(channel);
        }

        /** Where to report metrics, for example {@code MicrometerQueueMetrics.of(registry)}; none by default. */
        public Builder<T> metrics(QueueMetrics metrics) {
            settings.metrics(metrics);
            return this;
        }

        /**
         * What sees every publish (and may add headers to its messages, such as a trace's) and every
         * message a listener handles, for example Micrometer observations; none by default.
         */
        public Builder<T> observations(MessageObservations observations) {
            settings.observations(observations);
            return this;
        }

        /** Round-trips every message through this codec, as Redis would; none by default. */
        public Builder<T> codec(Codec<T> codec) {
            settings.codec(codec);
            return this;
        }

        /**
         * Largest encoded message: 1 byte to 256 MiB, 1 MiB by default, as on Redis. Checked only
         * with a {@linkplain #codec codec}: without one nothing is encoded, so nothing is measured.
         */
        public Builder<T> maxPayloadBytes(int bytes) {
            settings.maxPayloadBytes(bytes);
            return this;
        }

        /**
         * How many messages each subscription holds for a listener that has not caught up;
         * 100,000 ({@link InMemoryBroadcaster#DEFAULT_INBOX_CAPACITY}) by default, 1 to 16,777,216. A message published while a
         * subscription's queue is full is dropped for that subscription (see the class comment).
         */
        public Builder<T> inboxCapacity(int capacity) {
            this.inboxCapacity = Checks.inRange(capacity, 1, 1 << 24, "inboxCapacity");
            return this;
        }

        public InMemoryBroadcaster<T> build() {
            return new InMemoryBroadcaster<>(settings, inboxCapacity);
        }
    }
}
