package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link MessageQueue} held in this JVM's memory, standing in for the Redis list queue in unit
 * tests, with the same settings and defaults: FIFO, at-least-once unless
 * {@link Builder#guarantee} says at-most-once, messages kept while no one consumes.
 *
 * <pre>{@code
 * MessageQueue<String> orders = InMemoryMessageQueue.create("orders");
 * InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("orders")
 *         .clock(clock).visibilityTimeout(Duration.ofSeconds(5)).maxAttempts(3).build();
 * }</pre>
 *
 * <p>Easy to get wrong: <b>without a codec the queue hands out the very objects sent</b>, so a
 * handler that changes its payload and throws sees the changed object on the retry; give it the
 * codec the Redis queue uses ({@link Builder#codec(Codec)}) and payloads round-trip, fail and are
 * size-checked as on Redis. Leases and retry delays run on the builder's {@link Clock}: with a
 * {@link ManualClock} a test advances time instead of sleeping, and blocked callers wake as soon as
 * an advance makes a message ready. The timeouts of {@code poll(timeout, unit)} and
 * {@code pollBatch} are real time ({@link System#nanoTime()}), waited in whole milliseconds rounded
 * up, so they end even if a manual clock never moves.
 *
 * @param <T> the payload type
 */
public final class InMemoryMessageQueue<T> implements MessageQueue<T> {
    private final Engine<T> engine;

    private InMemoryMessageQueue(Settings<T> settings) {
        Semantics semantics =
                new Semantics("in-memory", settings.guarantee, Semantics.Ordering.FIFO, true, false, false);
        this.engine = new Engine<>(settings, semantics);
    }

    /**
     * An at-least-once queue with the default settings and the system clock.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 letters, digits or {@code . _ - :}
     */
    public static <T> InMemoryMessageQueue<T> create(String name) {
        return InMemoryMessageQueue.<T>builder(name).build();
    }

    /**
     * A builder for a queue of this name.
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
        return engine.semantics();
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
        return "InMemoryMessageQueue[" + name() + ", " + semantics().guarantee() + "]";
    }

    /**
     * Builds an {@link InMemoryMessageQueue}. Each setter checks its argument at once and says
     * what is wrong; the defaults are those of the Redis transports. Not thread-safe.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final Settings<T> settings;

        private Builder(String name) {
            this.settings = new Settings<>(name);
        }

        /** The clock for leases and retry delays; the system clock by default. */
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

        /** At-least-once (the default) or at-most-once delivery. */
        public Builder<T> guarantee(Semantics.Guarantee guarantee) {
            settings.guarantee(guarantee);
            return this;
        }

        public InMemoryMessageQueue<T> build() {
            return new InMemoryMessageQueue<>(settings);
        }
    }
}
