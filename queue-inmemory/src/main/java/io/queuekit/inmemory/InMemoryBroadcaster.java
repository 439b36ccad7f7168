package io.queuekit.inmemory;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.MessageListener;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.RateLimitedLog;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Broadcaster} held in this JVM's memory, standing in for Redis PUB/SUB in unit tests:
 * at-most-once, every subscriber present at publish time receives the message, nothing is kept
 * for absent subscribers, and each subscriber sees messages in publish order.
 *
 * <p><b>Subscriptions.</b> {@link #subscribe(MessageListener)} returns once the subscription is
 * registered, so every message published afterwards reaches it. Each subscription has its own
 * queue and its own daemon thread, {@code queuekit-<channel>-subscriber-<n>}, that calls the
 * listener one message at a time; a slow listener delays only itself. A listener cannot end its
 * subscription by failing: whatever it throws ({@link Error}s included) is counted in
 * {@link #listenerFailures()}, reported to the metrics as a failed handler, and logged (with its
 * stack trace, at most once every 10 s per subscription, with a count of those not logged, as on
 * Redis), and it receives the following messages; the failed message is not delivered again. A
 * listener that returns with its thread's interrupt flag set has the flag cleared before the next
 * call. Concurrent publishes are ordered the same way for every subscriber.
 *
 * <p><b>Slow listeners.</b> A subscription's queue holds at most {@link Builder#inboxCapacity(int)}
 * messages (100,000 unless set). A message published while it is full is dropped for that
 * subscription alone, not counted in what {@link #publish} returns, counted in
 * {@link #droppedMessages()} and logged (at most once every 10 s): the counterpart of Redis
 * cutting a subscriber that fell too far behind, except that here the subscription keeps its
 * place and gets the messages published once its listener has caught up. The metrics see each
 * such stretch as a {@linkplain QueueMetrics.Observer#gap(Duration) gap}, reported when the
 * subscription takes a message again.
 *
 * <p><b>Payloads.</b> Without a codec every subscriber receives the very object published. With
 * {@link Builder#codec(Codec)} the message is encoded once on publish (refused with
 * {@link IllegalArgumentException} over the size limit, 1 MiB unless set) and decoded separately
 * for each subscriber, as on Redis; a message that cannot be decoded is skipped for that subscriber,
 * logged, counted in {@link #listenerFailures()} and reported to the metrics as a
 * {@linkplain QueueMetrics.Observer#decodeFailed() decode failure}.
 *
 * <p><b>Nulls, threads, closing.</b> Null messages and listeners are refused with
 * {@link NullPointerException}. All methods are thread-safe. Closing a subscription drops the
 * messages it has not yet delivered and waits (up to 10 s) for its listener to finish the message
 * in hand. {@link #close()} closes every subscription and makes later calls throw
 * {@link QueueClosedException}; it is idempotent.
 *
 * @param <T> the payload type
 */
public final class InMemoryBroadcaster<T> implements Broadcaster<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InMemoryBroadcaster.class);
    private static final Semantics SEMANTICS = new Semantics("in-memory", Semantics.Guarantee.AT_MOST_ONCE,
            Semantics.Ordering.PUBLISH_ORDER, false, true, false);
    private static final long JOIN_MILLIS = 10_000;
    private static final Duration LOG_PERIOD = Duration.ofSeconds(10);
    private static final Object STOP = new Object();

    /** The default {@link Builder#inboxCapacity(int)}: 100,000 messages per subscription. */
    public static final int DEFAULT_INBOX_CAPACITY = 100_000;

    private final String name;
    private final Payloads<T> bodies;
    private final List<Sub> subscriptions = new CopyOnWriteArrayList<>();
    private final AtomicInteger subscriberNumbers = new AtomicInteger();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final int inboxCapacity;
    private final Object publishLock = new Object();
    private final QueueMetrics.Observer observer;
    private volatile boolean closed;

    private InMemoryBroadcaster(Settings<T> settings, int inboxCapacity) {
        this.name = settings.name;
        this.inboxCapacity = inboxCapacity;
        this.bodies = settings.bodies();
        this.observer = settings.metrics.observe(name, SEMANTICS.transport(), Settings.metricsNamespace(), null);
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
     * @throws NullPointerException if {@code message} is null
     * @throws QueueClosedException if the broadcaster is closed
     */
    @Override
    public long publish(T message) {
        Objects.requireNonNull(message, "message");
        Posted posted = new Posted(bodies.store(message), System.nanoTime());
        synchronized (publishLock) {
            ensureOpen();
            long n = 0;
            for (Sub s : subscriptions) {
                if (s.offer(posted)) {
                    n++;
                }
            }
            observer.sent(1);
            return n;
        }
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
        List<Posted> batch = new ArrayList<>(copy.size());
        for (T m : copy) {
            batch.add(new Posted(bodies.store(m), System.nanoTime()));
        }
        synchronized (publishLock) {
            ensureOpen();
            long[] received = new long[batch.size()];
            for (int i = 0; i < received.length; i++) {
                for (Sub s : subscriptions) {
                    if (s.offer(batch.get(i))) {
                        received[i]++;
                    }
                }
            }
            if (received.length > 0) {
                observer.sent(received.length);
            }
            return received;
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws NullPointerException if {@code listener} is null
     * @throws QueueClosedException if the broadcaster is closed
     */
    @Override
    public Subscription subscribe(MessageListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (publishLock) {
            ensureOpen();
            Sub s = new Sub(listener, "queuekit-" + name + "-subscriber-" + subscriberNumbers.incrementAndGet());
            subscriptions.add(s);
            s.thread.start();
            return s;
        }
    }

    @Override
    public Semantics semantics() {
        return SEMANTICS;
    }

    /** How many times a listener threw, or a message could not be decoded for it, so far. */
    public long listenerFailures() {
        return failures.get();
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
        synchronized (publishLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (Sub s : subscriptions) {
            s.close();
        }
        observer.close();
    }

    @Override
    public String toString() {
        return "InMemoryBroadcaster[" + name + "]";
    }

    private void ensureOpen() {
        if (closed) {
            throw new QueueClosedException(name);
        }
    }

    /** A published body and when it was published, for the latency metric. */
    private record Posted(Object body, long nanos) {}

    /** One subscription: a queue of bodies and the thread that feeds them to the listener. */
    private final class Sub implements Subscription {
        private final MessageListener<? super T> listener;
        private final LinkedBlockingQueue<Object> inbox;
        private final AtomicBoolean active = new AtomicBoolean(true);
        private final RateLimitedLog dropLog = new RateLimitedLog(LOG, LOG_PERIOD);
        private final RateLimitedLog failureLog = new RateLimitedLog(LOG, LOG_PERIOD);
        private final RateLimitedLog decodeLog = new RateLimitedLog(LOG, LOG_PERIOD);
        /** Whether messages are being dropped for this subscription, and since when; guarded by publishLock. */
        private boolean dropping;
        private long droppingSinceNanos;
        final Thread thread;

        Sub(MessageListener<? super T> listener, String threadName) {
            this.listener = listener;
            // one more than the capacity: close() must always find room for STOP
            this.inbox = new LinkedBlockingQueue<>(inboxCapacity + 1);
            this.thread = new Thread(this::run, threadName);
            this.thread.setDaemon(true);
        }

        /** Called with publishLock held. */
        boolean offer(Posted posted) {
            if (!active.get()) {
                return false;
            }
            if (inbox.size() < inboxCapacity && inbox.offer(posted)) {
                if (dropping) {
                    dropping = false;
                    observer.gap(Duration.ofNanos(System.nanoTime() - droppingSinceNanos));
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
                LOG.warn("queuekit {}: the listener on {} is {} messages behind (inboxCapacity); dropped {} "
                        + "message(s) for it since the last report", name, thread.getName(), inboxCapacity, held + 1);
            }
            return false;
        }

        private void run() {
            try {
                while (active.get()) {
                    Object body;
                    try {
                        body = inbox.take();
                    } catch (InterruptedException e) {
                        continue; // only close() ends this thread; it leaves STOP in the queue
                    }
                    if (body == STOP || !active.get()) {
                        return;
                    }
                    deliver((Posted) body);
                    // a listener that left the flag set must not interrupt the next one
                    Thread.interrupted();
                }
            } finally {
                if (active.get()) {
                    // not reached through close(): stop counting this subscription rather than hold a dead one
                    LOG.error("queuekit {}: {} ended unexpectedly; its subscription is closed", name,
                            thread.getName());
                    active.set(false);
                    subscriptions.remove(this);
                    inbox.clear();
                }
            }
        }

        private void deliver(Posted posted) {
            T message;
            try {
                message = bodies.load(posted.body());
            } catch (Throwable e) {
                // as on Redis: skipped, never handed to the listener, not counted as delivered
                failures.incrementAndGet();
                try {
                    observer.decodeFailed();
                    long held = decodeLog.tryAcquire();
                    if (held >= 0) {
                        LOG.warn("queuekit {}: {} skipped a message that could not be decoded{}", name,
                                thread.getName(), RateLimitedLog.more(held), e);
                    }
                } catch (Throwable ignored) {
                    // an observer or logger that fails too: the subscription still carries on
                }
                return;
            }
            long start = System.nanoTime();
            try {
                observer.delivered(Duration.ofNanos(start - posted.nanos()));
                listener.onMessage(message);
                observer.handled(Duration.ofNanos(System.nanoTime() - start), false);
            } catch (Throwable e) {
                failures.incrementAndGet();
                try {
                    observer.handled(Duration.ofNanos(System.nanoTime() - start), true);
                    long held = failureLog.tryAcquire();
                    if (held >= 0) {
                        LOG.warn("queuekit {}: listener on {} failed; carrying on with the next message{}", name,
                                thread.getName(), RateLimitedLog.more(held), e);
                    }
                } catch (Throwable ignored) {
                    // an observer or logger that fails too: the subscription still carries on
                }
            }
        }

        @Override
        public boolean isActive() {
            return active.get();
        }

        @Override
        public void close() {
            synchronized (publishLock) {
                // under the lock: no publish is between its active check and its offer
                if (!active.compareAndSet(true, false)) {
                    return;
                }
                subscriptions.remove(this);
                inbox.clear();
                inbox.offer(STOP);
            }
            if (Thread.currentThread() == thread) {
                return;
            }
            try {
                thread.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String toString() {
            return "Subscription[" + thread.getName() + (active.get() ? "" : ", closed") + "]";
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
