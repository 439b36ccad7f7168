package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Scheduler;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link DelayQueue} held in this JVM's memory, standing in for the Redis zset delay queue in
 * unit tests: the same rules for due times, ids and leases, and otherwise as
 * {@link InMemoryMessageQueue} in at-least-once mode (an optional {@link Codec}, the same defaults).
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * DelayQueue<String> reminders = InMemoryDelayQueue.<String>builder("reminders").clock(clock).build();
 * reminders.schedule("call back", Duration.ofMinutes(10));
 * clock.advance(Duration.ofMinutes(10));
 * Delivery<String> d = reminders.poll();
 * }</pre>
 *
 * <p>Delays, due times, leases and retry delays run on the builder's {@link Clock} (the system
 * clock unless set), so with a {@link ManualClock} a test schedules, advances and receives without
 * sleeping. The timeouts of {@code poll(timeout, unit)} and {@code pollBatch} are real time, as for
 * {@link InMemoryMessageQueue}, so they end even if a manual clock never moves.
 *
 * @param <T> the payload type
 */
public final class InMemoryDelayQueue<T> implements DelayQueue<T> {
    private static final Semantics SEMANTICS = new Semantics(
            "in-memory", Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.DUE_TIME, true, false, true);

    private final Engine<T> engine;
    private final MemorySchedules<T> schedules;

    private InMemoryDelayQueue(Settings<T> settings) {
        this.engine = new Engine<>(settings, SEMANTICS);
        this.schedules = new MemorySchedules<>(engine);
    }

    /**
     * A delay queue with the default settings and the system clock.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> InMemoryDelayQueue<T> create(String name) {
        return InMemoryDelayQueue.<T>builder(name).build();
    }

    /**
     * A builder for a delay queue of this name.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public MessageId send(T payload, Headers headers) {
        return engine.sending.send(payload, headers);
    }

    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        return engine.sending.sendAll(payloads);
    }

    @Override
    public MessageId schedule(T payload, Headers headers, Duration delay) {
        return engine.sending.schedule(payload, headers, delay);
    }

    @Override
    public MessageId scheduleAt(T payload, Headers headers, Instant dueAt) {
        return engine.sending.scheduleAt(payload, headers, dueAt);
    }

    @Override
    public boolean schedule(MessageId id, T payload, Headers headers, Duration delay) {
        return engine.sending.schedule(id, payload, headers, delay);
    }

    @Override
    public boolean scheduleAt(MessageId id, T payload, Headers headers, Instant dueAt) {
        return engine.sending.scheduleAt(id, payload, headers, dueAt);
    }

    /**
     * {@inheritDoc} In memory the batch is stored in one step under the queue's lock; there is no
     * transport to fail.
     */
    @Override
    public List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
        return engine.sending.scheduleAll(payloads, delay);
    }

    /** {@inheritDoc} Stored in one step under the queue's lock. */
    @Override
    public List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
        return engine.sending.scheduleAllAt(payloads, dueAt);
    }

    /** {@inheritDoc} Stored in one step under the queue's lock. */
    @Override
    public List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages) {
        return engine.sending.scheduleEach(messages);
    }

    @Override
    public boolean cancel(MessageId id) {
        return engine.cancel(id);
    }

    @Override
    public Delivery<T> poll() {
        return engine.runtime().poll();
    }

    /** {@inheritDoc} The timeout is real time, whatever the queue's clock. */
    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().poll(timeout, unit);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        return engine.runtime().take();
    }

    /** {@inheritDoc} The timeout is real time, whatever the queue's clock. */
    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().pollBatch(maxMessages, timeout, unit);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return engine.runtime().consume(this, handler, options);
    }

    @Override
    public void pause() {
        engine.runtime().pause();
    }

    @Override
    public void resume() {
        engine.runtime().resume();
    }

    @Override
    public boolean isPaused() {
        return engine.runtime().isPaused();
    }

    @Override
    public QueueStats stats() {
        return engine.runtime().stats();
    }

    @Override
    public Semantics semantics() {
        return SEMANTICS;
    }

    /**
     * {@inheritDoc} Every scheduler of this queue object shares its schedules, as schedulers in
     * several processes share a Redis queue's. With a {@link ManualClock}, a scheduler has no thread:
     * advancing the clock stores the ticks that fell due, each one, before {@code advance} returns.
     */
    @Override
    public Scheduler<T> scheduler() {
        return engine.runtime().scheduler(schedules, engine.manualClock != null);
    }

    /** Where the schedules are kept, for tests of the atomic steps. */
    MemorySchedules<T> schedules() {
        return schedules;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        return engine.runtime().deadLetters();
    }

    @Override
    public void close() {
        engine.runtime().close();
    }

    @Override
    public String toString() {
        return "InMemoryDelayQueue[" + name() + "]";
    }

    /**
     * Builds an {@link InMemoryDelayQueue}. Each setter checks its argument at once and says what
     * is wrong; the defaults are those of the Redis transports. Not thread-safe.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final Settings<T> settings;

        private Builder(String name) {
            this.settings = new Settings<>(name);
        }

        /** The clock for delays, due times, leases and retries; the system clock by default. */
        public Builder<T> clock(Clock clock) {
            settings.clock(clock);
            return this;
        }

        /** How long a delivery is leased before it is delivered again; positive, 30 s by default. */
        public Builder<T> visibilityTimeout(Duration timeout) {
            settings.visibilityTimeout(timeout);
            return this;
        }

        /** Deliveries of one message before it goes to the dead letters; 1 to 1000, 5 by default. */
        public Builder<T> maxAttempts(int maxAttempts) {
            settings.maxAttempts(maxAttempts);
            return this;
        }

        /** Dead letters kept, the oldest dropped first; 0 (keep none) to 100,000,000, 10,000 by default. */
        public Builder<T> deadLetterRetention(int messages) {
            settings.deadLetterRetention(messages);
            return this;
        }

        /** Most messages one {@code pollBatch} hands out, as on Redis; 1 to 10,000, 100 by default. */
        public Builder<T> claimBatch(int messages) {
            settings.claimBatch(messages);
            return this;
        }

        /** Where to report metrics, for example {@code MicrometerQueueMetrics.of(registry)}; none by default. */
        public Builder<T> metrics(QueueMetrics metrics) {
            settings.metrics(metrics);
            return this;
        }

        /**
         * What sees every send (and may add headers to its messages, such as a trace's) and every
         * message a managed consumer handles, for example Micrometer observations; none by default.
         */
        public Builder<T> observations(MessageObservations observations) {
            settings.observations(observations);
            return this;
        }

        /** Round-trips every payload through this codec, as Redis would; none by default. */
        public Builder<T> codec(Codec<T> codec) {
            settings.codec(codec);
            return this;
        }

        /**
         * Largest encoded payload: 1 byte to 256 MiB, 1 MiB by default, as on Redis. Checked only
         * with a {@linkplain #codec codec}: without one nothing is encoded, so nothing is measured.
         */
        public Builder<T> maxPayloadBytes(int bytes) {
            settings.maxPayloadBytes(bytes);
            return this;
        }

        public InMemoryDelayQueue<T> build() {
            return new InMemoryDelayQueue<>(settings);
        }
    }
}
