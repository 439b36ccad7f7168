package io.queuekit.inmemory;

import static io.queuekit.internal.RateLimitedLog.more;

import io.queuekit.BroadcastListener;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Checks;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.RateLimitedLog;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Topic} held in this JVM's memory, standing in for the Redis stream topic in unit tests:
 * every group gets every message published after its start, kept while none of its consumers runs,
 * and each group is a queue with the leases, retries, dead letters, pause and stats of an
 * {@link InMemoryMessageQueue} built with the same settings.
 *
 * <pre>{@code
 * InMemoryTopic<OrderEvent> orders = InMemoryTopic.<OrderEvent>builder("orders").clock(clock).build();
 * ConsumerGroup<OrderEvent> billing = orders.group("billing");
 * orders.publish(new OrderEvent(...));
 * }</pre>
 *
 * <p>How it is kept: the topic object is the store, so {@code group(name)} twice on it returns two
 * objects on one stored group, and two topic objects of one name share nothing. Every publish is
 * appended to the topic's log (ids {@code "@" + sequence}, stamped by the builder's clock) and a
 * copy is stored in every group that exists at that moment; each group then hands out, leases and
 * settles its copy as a queue does. <b>The invariant: a group holds every message published since
 * its start (or its last {@link ConsumerGroup#replayFrom replay}) that it has not acked</b>; the log
 * serves only {@link Position}s and replays, and {@link Builder#maxLength(long)} drops from it only
 * what every durable group has acked (or dead-lettered, keeping its own copy). A subscription is a
 * group {@code ~<n>} of its own, read by one named thread that acks each message once its listener
 * returns or throws (a throw is logged, rate-limited, and counted in {@link #listenerFailures()}),
 * and whose lease lasts while its listener runs, as a managed consumer's does. There is no hard
 * cap, so {@link GroupInfo#missed()} is always 0.
 *
 * @param <T> the payload type
 */
public final class InMemoryTopic<T> implements Topic<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InMemoryTopic.class);
    private static final Semantics SEMANTICS = new Semantics(
            "in-memory", Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.PUBLISH_ORDER, true, true, false);
    /** What one group promises: a queue in publish order, kept while no one consumes. */
    static final Semantics GROUP_SEMANTICS =
            new Semantics("in-memory", Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.FIFO, true, false, false);

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration LOG_PERIOD = Duration.ofSeconds(10);
    /** How long a listener call keeps its message's lease: a managed consumer's default limit. */
    private static final Duration HOLD_LIMIT = ConsumeOptions.defaults().leaseRenewalLimit();

    private static final int MAX_GROUP_NAME = 100;

    private final String name;
    private final Settings<T> settings;
    private final long maxLength;
    private final Payloads<T> bodies;
    private final BroadcastRuntime<Subscriber> runtime;
    private final MessageObservations.Destination destination;
    private final AtomicLong listenerFailures = new AtomicLong();
    private final RateLimitedLog listenerLog = new RateLimitedLog(LOG, LOG_PERIOD);
    /** The group objects open, closed with the topic. */
    private final Set<InMemoryConsumerGroup<T>> objects = ConcurrentHashMap.newKeySet();

    /** Orders publishes, group creation, replays and deletion; taken before any group's lock, never after. */
    private final Object lock = new Object();
    // guarded by lock
    private final TopicLog log;
    private final TreeMap<String, TopicGroup> groups = new TreeMap<>();
    private long subscriptions;

    private InMemoryTopic(Settings<T> settings, long maxLength) {
        this.name = settings.name;
        this.settings = settings;
        this.maxLength = maxLength;
        this.bodies = settings.bodies();
        this.log = new TopicLog(settings.clock);
        this.runtime = new BroadcastRuntime<>(
                name,
                name,
                settings.metrics.observe(name, SEMANTICS.transport(), Settings.metricsNamespace(), null),
                settings.observations,
                SEMANTICS.transport(),
                CLOSE_TIMEOUT,
                LOG);
        this.destination =
                new MessageObservations.Destination(name, SEMANTICS.transport(), MessageObservations.Kind.BROADCAST);
    }

    /**
     * A topic with the default settings, the system clock and no codec.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> InMemoryTopic<T> create(String name) {
        return InMemoryTopic.<T>builder(name).build();
    }

    /**
     * A builder for a topic of this name.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * {@inheritDoc}
     *
     * @return the number of groups the message was stored for, subscriptions' included
     * @throws NullPointerException if {@code message} or {@code headers} is null
     * @throws IllegalArgumentException with a codec, if the encoded message is larger than
     *     {@link Builder#maxPayloadBytes(int)}; or if the headers with those the observations add
     *     exceed {@link Headers}' limits; nothing was published
     * @throws QueueClosedException if the topic is closed
     */
    @Override
    public long publish(T message, Headers headers) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(headers, "headers");
        return runtime.sending(1, added -> {
            Object body = bodies.store(message, headers.withAll(added));
            synchronized (lock) {
                runtime.checkOpen();
                long n = groups.size();
                append(List.of(body));
                runtime.observer().sent(1);
                return n;
            }
        });
    }

    /**
     * {@inheritDoc} In memory the whole batch is stored in one step: every group gets all of it,
     * with no other publish between its messages.
     *
     * @return for each message, the number of groups it was stored for: the same for the whole batch
     */
    @Override
    public long[] publishAll(Collection<? extends T> messages) {
        List<? extends T> copy = Checks.payloads(messages);
        if (copy.isEmpty()) {
            checkOpen(); // nothing is published, so nothing is observed
            return new long[0];
        }
        return runtime.sending(copy.size(), added -> {
            List<Object> batch = new ArrayList<>(copy.size());
            for (T m : copy) {
                batch.add(bodies.store(m, added));
            }
            synchronized (lock) {
                runtime.checkOpen();
                long[] stored = new long[batch.size()];
                Arrays.fill(stored, groups.size());
                append(batch);
                runtime.observer().sent(stored.length);
                return stored;
            }
        });
    }

    /** Appends to the log and to every group, then trims; under the lock. */
    private List<MessageId> append(List<Object> batch) {
        List<TopicLog.Entry> entries = log.append(batch);
        for (TopicGroup g : groups.values()) {
            g.contents.appendAll(entries);
        }
        if (log.size() > maxLength) {
            log.trim(maxLength, this::heldByADurableGroup);
        }
        List<MessageId> ids = new ArrayList<>(entries.size());
        for (TopicLog.Entry e : entries) {
            ids.add(e.id());
        }
        return ids;
    }

    private boolean heldByADurableGroup(MessageId id) {
        for (TopicGroup g : groups.values()) {
            if (!g.subscription && g.holds(id)) {
                return true;
            }
        }
        return false;
    }

    /** Publishes bodies encoded by a group object, which is open; their ids. */
    List<MessageId> publishFrom(Engine<T> group, List<Object> batch) {
        synchronized (lock) {
            runtime.checkOpen();
            group.checkOpen();
            return append(batch);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException also if {@code start} is after an id this topic does not
     *     give; nothing was created
     */
    @Override
    public ConsumerGroup<T> group(String name, Position start) {
        checkGroupName(name);
        Objects.requireNonNull(start, "start");
        synchronized (lock) {
            runtime.checkOpen();
            TopicGroup g = groups.get(name);
            if (g == null) {
                List<TopicLog.Entry> from = log.from(start);
                g = new TopicGroup(name, false);
                g.contents.appendAll(from);
                groups.put(name, g);
            }
            InMemoryConsumerGroup<T> object = new InMemoryConsumerGroup<>(
                    this, g, new Engine<>(settings.forGroup(name, false), GROUP_SEMANTICS, g.contents, g.namespace));
            objects.add(object);
            return object;
        }
    }

    private static void checkGroupName(String name) {
        Objects.requireNonNull(name, "name");
        boolean ok = !name.isEmpty() && name.length() <= MAX_GROUP_NAME;
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == '-';
        }
        if (!ok) {
            String shown = name.length() > MAX_GROUP_NAME ? name.length() + " characters" : "\"" + name + "\"";
            throw new IllegalArgumentException("group name must be 1 to " + MAX_GROUP_NAME
                    + " letters, digits, '.', '_' or '-'"
                    + (name.startsWith("~") ? " ('~' begins the names of subscriptions' groups)" : "") + ": "
                    + shown.replaceAll("\\p{Cntrl}", "?"));
        }
    }

    /** Moves a group to {@code position}; see {@link TopicGroup#replay}. */
    void replay(TopicGroup g, Position position) {
        synchronized (lock) {
            runtime.checkOpen();
            g.replay(log.from(position), log);
        }
    }

    @Override
    public List<GroupInfo> groups() {
        synchronized (lock) {
            runtime.checkOpen();
            List<GroupInfo> out = new ArrayList<>(groups.size());
            for (TopicGroup g : groups.values()) {
                out.add(g.info());
            }
            return out;
        }
    }

    /**
     * {@inheritDoc} The objects on it refuse every call from then on with
     * {@link QueueClosedException}; a subscription's group ends its subscription.
     */
    @Override
    public boolean deleteGroup(String name) {
        Objects.requireNonNull(name, "name");
        synchronized (lock) {
            runtime.checkOpen();
            TopicGroup g = groups.remove(name);
            if (g == null) {
                return false;
            }
            g.contents.delete();
            return true;
        }
    }

    /** {@inheritDoc} In memory: the messages the topic retains for {@link Position}s. */
    @Override
    public long size() {
        synchronized (lock) {
            runtime.checkOpen();
            return log.size();
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws NullPointerException if {@code listener} is null
     * @throws QueueClosedException if the topic is closed
     */
    @Override
    public Subscription subscribeWithHeaders(BroadcastListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        Subscriber s;
        synchronized (lock) {
            runtime.checkOpen();
            TopicGroup g = new TopicGroup("~" + ++subscriptions, true);
            groups.put(g.name, g);
            s = new Subscriber(g, listener, runtime.nextSubscriptionName());
            runtime.register(s);
        }
        s.thread.start();
        return s;
    }

    @Override
    public Semantics semantics() {
        return SEMANTICS;
    }

    /** How many times a listener threw, or a message could not be decoded for it, so far. */
    public long listenerFailures() {
        return listenerFailures.get();
    }

    void checkOpen() {
        runtime.checkOpen();
    }

    /** A group object was closed. */
    void closed(InMemoryConsumerGroup<T> object) {
        objects.remove(object);
    }

    /** Closes every subscription and every group object made by this topic; idempotent. */
    @Override
    public void close() {
        runtime.close(deadline -> {
            List<InMemoryConsumerGroup<T>> open;
            synchronized (lock) { // a group() that saw the topic open has added its object
                open = List.copyOf(objects);
            }
            open.forEach(InMemoryConsumerGroup::close);
        });
    }

    @Override
    public String toString() {
        return "InMemoryTopic[" + name + "]";
    }

    /**
     * One subscription: a group of its own, read by one thread that hands each message to the
     * listener inside the observations and acks it once the listener returns or throws.
     */
    private final class Subscriber implements Subscription, BroadcastRuntime.Member {
        private final TopicGroup group;
        private final Engine<T> engine;
        /** Keeps the lease of the message in hand, so a long listener call does not get it a second time. */
        private final LeaseKeeper leases;

        private final BroadcastListener<? super T> listener;
        private final Thread thread;
        private volatile boolean active = true;

        Subscriber(TopicGroup group, BroadcastListener<? super T> listener, String threadName) {
            this.group = group;
            this.listener = listener;
            this.engine =
                    new Engine<>(settings.forGroup(group.name, true), GROUP_SEMANTICS, group.contents, group.namespace);
            this.leases = engine.leaseKeeper();
            this.thread = new Thread(this::run, threadName);
            this.thread.setDaemon(true); // a forgotten subscription must not keep the JVM alive
        }

        private void run() {
            try {
                while (active) {
                    Delivery<T> d;
                    try {
                        d = engine.runtime().take();
                    } catch (InterruptedException e) {
                        continue; // closing interrupts to wake this thread
                    } catch (QueueClosedException e) {
                        break; // closed, or its group was deleted
                    }
                    if (!active) {
                        break;
                    }
                    deliver(d);
                    if (active) {
                        Thread.interrupted(); // a listener that left its thread interrupted must not stop the next call
                    }
                }
            } finally {
                beginClose();
            }
        }

        private void deliver(Delivery<T> d) {
            T value;
            try {
                value = d.payload();
            } catch (RuntimeException e) {
                failed("could not decode a message; it is skipped", e);
                settle(d);
                return;
            }
            Headers h = d.headers();
            long start = System.nanoTime();
            Duration waited = Duration.between(d.enqueuedAt(), settings.clock.instant());
            runtime.observer().delivered(waited.isNegative() ? Duration.ZERO : waited);
            boolean threw = false;
            LeaseKeeper.Hold hold = leases.hold(d, HOLD_LIMIT);
            try {
                settings.observations.handling(destination, h, () -> listener.onMessage(value, h));
            } catch (Throwable t) {
                threw = true;
                if (active || !(t instanceof InterruptedException)) {
                    failed("the listener threw; the subscription carries on", t);
                }
            } finally {
                hold.release();
            }
            runtime.observer().handled(Duration.ofNanos(System.nanoTime() - start), threw);
            settle(d);
        }

        private void failed(String what, Throwable t) {
            listenerFailures.incrementAndGet();
            long held = listenerLog.tryAcquire();
            if (held >= 0) {
                LOG.warn("{}: {}{}", thread.getName(), what, more(held), t);
            }
        }

        /** Acks: the listener had the message; a subscription closing meanwhile has nothing to ack. */
        private void settle(Delivery<T> d) {
            try {
                d.ack();
            } catch (QueueClosedException e) {
                // closing deletes the subscription's group, with what it held
            }
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

        /** Stops handing out, deletes the group, and wakes the thread; a listener call in progress finishes. */
        @Override
        public void beginClose() {
            synchronized (lock) {
                if (!active) {
                    return;
                }
                active = false;
                groups.remove(group.name, group);
                group.contents.delete();
                runtime.unregister(this);
            }
            if (Thread.currentThread() != thread) {
                thread.interrupt();
            }
            leases.close();
            engine.runtime().close();
        }

        @Override
        public void awaitTermination(long deadlineNanos) {
            if (!BroadcastRuntime.awaitEnd(thread, deadlineNanos) && thread != Thread.currentThread()) {
                LOG.warn(
                        "{}: the listener was still running when close() stopped waiting; its thread ends when the "
                                + "listener returns",
                        thread.getName());
            }
        }

        @Override
        public String toString() {
            return "Subscription[" + thread.getName() + (active ? "" : ", closed") + "]";
        }
    }

    /**
     * Builds an {@link InMemoryTopic}. Each setter checks its argument at once and says what is
     * wrong; the defaults are those of the Redis transports, and they apply to every group. Not
     * thread-safe.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final Settings<T> settings;
        private long maxLength = Long.MAX_VALUE;

        private Builder(String name) {
            this.settings = new Settings<>(name);
        }

        /** The clock for publish times, leases and retry delays; the system clock by default. */
        public Builder<T> clock(Clock clock) {
            settings.clock(clock);
            return this;
        }

        /** How long a group's delivery is leased before it is delivered again; positive, 30 s by default. */
        public Builder<T> visibilityTimeout(Duration timeout) {
            settings.visibilityTimeout(timeout);
            return this;
        }

        /** Deliveries of one message in a group before it goes to the group's dead letters; 1 to 1000, 5 by default. */
        public Builder<T> maxAttempts(int maxAttempts) {
            settings.maxAttempts(maxAttempts);
            return this;
        }

        /** Dead letters each group keeps, the oldest dropped first; 0 (keep none) to 100,000,000, 10,000 by default. */
        public Builder<T> deadLetterRetention(int messages) {
            settings.deadLetterRetention(messages);
            return this;
        }

        /**
         * Messages the topic retains for {@link Position}s and replays beyond which the oldest are
         * dropped, but only those every group has acked (subscriptions' groups aside): what a group
         * has not acked is never dropped. At least 1; unlimited by default.
         */
        public Builder<T> maxLength(long messages) {
            if (messages < 1) {
                throw new IllegalArgumentException("max length must be positive: " + messages);
            }
            this.maxLength = messages;
            return this;
        }

        /** Where the topic and its groups report metrics; none by default. */
        public Builder<T> metrics(QueueMetrics metrics) {
            settings.metrics(metrics);
            return this;
        }

        /**
         * What sees every publish and send (and may add headers to its messages, such as a trace's),
         * every message a listener or a group's managed consumer handles; none by default.
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

        public InMemoryTopic<T> build() {
            return new InMemoryTopic<>(settings, maxLength);
        }
    }
}
