package io.queuekit.internal;

import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every queue does the same whatever its transport: its lifecycle (open, closing, closed),
 * its managed consumers, its metrics and observations, its payloads' encoding and limits, and its
 * dead letters' checks and decoding, over the narrow {@link QueueStore} each transport implements. One per queue
 * instance; thread-safe.
 *
 * <p>Built first, so the store can report to its {@link #observer()}; the store is then
 * {@linkplain #attach attached}, before the queue is handed to its caller.
 *
 * @param <T> the payload type
 */
public final class QueueRuntime<T> {
    /** Open; closing (receiving refused, settling accepted while consumers drain); closed. */
    private enum Phase {
        OPEN,
        CLOSING,
        CLOSED
    }

    private final String label;
    private final Payloads<T> payloads;
    private final QueueMetrics.Observer observer;
    private final MessageObservations observations;
    private final MessageObservations.Destination destination;
    private final Consumers consumers;
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.OPEN);
    private volatile QueueStore<T> store;
    private final String name;
    private final List<ScheduleRunner<T>> schedulers = new CopyOnWriteArrayList<>();
    private final AtomicInteger schedulerCount = new AtomicInteger();
    private final Pausing pausing;

    /**
     * @param label names the queue in exceptions and logs ({@code "redis-list orders"})
     * @param name the queue's name: its metrics and consumer threads carry it
     * @param transport the transport's name, as {@link io.queuekit.Semantics#transport()} says it
     * @param namespace the metrics' namespace tag (a key prefix)
     * @param maxAttempts a handler failure on this attempt dead-letters the message
     */
    public QueueRuntime(
            String label,
            String name,
            String transport,
            String namespace,
            QueueMetrics metrics,
            int maxAttempts,
            Payloads<T> payloads) {
        this(label, name, transport, namespace, metrics, MessageObservations.NONE, maxAttempts, payloads);
    }

    /**
     * As the constructor without observations, with {@code observations} seeing every send and
     * every message a managed consumer handles.
     */
    public QueueRuntime(
            String label,
            String name,
            String transport,
            String namespace,
            QueueMetrics metrics,
            MessageObservations observations,
            int maxAttempts,
            Payloads<T> payloads) {
        this.label = Objects.requireNonNull(label, "label");
        this.name = Objects.requireNonNull(name, "name");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.destination = new MessageObservations.Destination(name, transport, MessageObservations.Kind.QUEUE);
        this.payloads = Objects.requireNonNull(payloads, "payloads");
        this.observer = metrics.observe(name, transport, namespace, () -> {
            QueueStore<T> s = store;
            return s == null ? new QueueStats(0, 0, 0, 0) : s.stats();
        });
        this.consumers = new Consumers(name, maxAttempts, observer, observations, destination, this::store);
        this.pausing = new Pausing(System::nanoTime, Pausing.CHECK_MILLIS, () -> store().paused(), this::isClosing);
    }

    /** Attaches the queue's store; once, before the queue is used. */
    public void attach(QueueStore<T> store) {
        Objects.requireNonNull(store, "store");
        if (this.store != null) {
            throw new IllegalStateException(label + " has a store already");
        }
        this.store = store;
    }

    private QueueStore<T> store() {
        QueueStore<T> s = store;
        if (s == null) {
            throw new IllegalStateException(label + " has no store yet");
        }
        return s;
    }

    /** "transport name", for exceptions and logs. */
    public String label() {
        return label;
    }

    /** Where this queue reports what it does. */
    public QueueMetrics.Observer observer() {
        return observer;
    }

    /**
     * Runs one send of {@code count} messages inside the queue's observations: {@code send} stores
     * them, each with the headers it is given added to its own ({@link Headers#withAll}).
     */
    public <R> R sending(int count, MessageObservations.Send<R> send) {
        return observations.sending(destination, count, send);
    }

    /** How payloads are encoded, decoded and size-checked. */
    public Payloads<T> payloads() {
        return payloads;
    }

    // ---- lifecycle

    /** Throws {@link QueueClosedException} once the queue is closed (not while it is closing). */
    public void checkOpen() {
        if (phase.get() == Phase.CLOSED) {
            throw new QueueClosedException(label);
        }
    }

    /** Throws {@link QueueClosedException} as soon as closing begins: receiving ends first. */
    public void checkReceiving() {
        if (phase.get() != Phase.OPEN) {
            throw new QueueClosedException(label);
        }
    }

    /** Whether the queue refuses every call. */
    public boolean isClosed() {
        return phase.get() == Phase.CLOSED;
    }

    /** Whether receivers must stop: the queue is closing or closed. */
    public boolean isClosing() {
        return phase.get() != Phase.OPEN;
    }

    /**
     * Closes gracefully: receiving is refused and blocked receivers are woken (or notice within a
     * block timeout), the managed consumers' running handlers finish and settle, then every call
     * is refused. True on the first call; a second one waits for the first to end.
     */
    public boolean close() {
        if (!phase.compareAndSet(Phase.OPEN, Phase.CLOSING)) {
            consumers.awaitShutDown();
            return false;
        }
        schedulers.forEach(ScheduleRunner::close);
        QueueStore<T> s = store();
        s.receivingStopped();
        pausing.stir();
        consumers.shutDown(() -> {
            phase.set(Phase.CLOSED);
            observer.close();
            s.closed();
        });
        return true;
    }

    // ---- what the SPI's queues do alike

    /**
     * A new scheduler of this queue's schedules in {@code store}, closed when the queue closes;
     * {@code manual}: run by {@link ScheduleRunner#runDue()} when a manual clock moves.
     */
    public ScheduleRunner<T> scheduler(ScheduleStore<T> store, boolean manual) {
        checkOpen();
        ScheduleRunner<T> r = new ScheduleRunner<>(
                label,
                "queuekit-" + name + "-scheduler-" + schedulerCount.incrementAndGet(),
                store,
                this::checkOpen,
                manual);
        schedulers.removeIf(ScheduleRunner::isClosed);
        schedulers.add(r);
        if (phase.get() != Phase.OPEN) { // closed meanwhile: the close may have missed it
            r.close();
            checkOpen();
        }
        return r;
    }

    /** Runs what is due on every manual scheduler of this queue (a manual clock moved). */
    public void runSchedulers() {
        for (ScheduleRunner<T> r : schedulers) {
            try {
                r.runDue();
            } catch (QueueClosedException e) { // closed while the clock moved: nothing to run
            }
        }
    }

    /**
     * Starts managed consumers on {@code queue} (the transport's entry object, whose receiving
     * methods they call); they are stopped when this queue closes.
     */
    public Subscription consume(MessageQueue<T> queue, MessageHandler<T> handler, ConsumeOptions options) {
        return consumers.start(queue, handler, options); // refuses once closing began
    }

    /** {@link MessageQueue#poll()}: one claim, no wait. */
    public Delivery<T> poll() {
        try {
            return first(store().receive(1, 0));
        } catch (InterruptedException e) {
            throw new AssertionError("a receive that does not wait checks no interrupt", e);
        }
    }

    /** {@link MessageQueue#poll(long, TimeUnit)}; an interrupt on entry takes nothing, as a zero wait. */
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = Checks.timeoutNanos(timeout, unit);
        interruptedOnEntry();
        return first(store().receive(1, nanos));
    }

    /** {@link MessageQueue#take()}: waits a day at a time, for as long as it takes. */
    public Delivery<T> take() throws InterruptedException {
        interruptedOnEntry();
        while (true) {
            Delivery<T> d = first(store().receive(1, TimeUnit.DAYS.toNanos(1)));
            if (d != null) {
                return d;
            }
        }
    }

    /** {@link MessageQueue#pollBatch}. */
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        Checks.batchSize(maxMessages);
        long nanos = Checks.timeoutNanos(timeout, unit);
        interruptedOnEntry();
        return store().receive(maxMessages, nanos);
    }

    private static void interruptedOnEntry() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    private static <T> Delivery<T> first(List<Delivery<T>> got) {
        return got.isEmpty() ? null : got.get(0);
    }

    // ---- pausing

    /** What this queue object knows of its queue's pause, and where its receives wait while paused. */
    public Pausing pausing() {
        return pausing;
    }

    /** {@link MessageQueue#pause()}: stored first, so that a receive after it sees it anywhere. */
    public void pause() {
        checkOpen();
        store().storePaused(true);
        pausing.learned(true);
    }

    /** {@link MessageQueue#resume()}: stored, then this object's waiting receives are woken. */
    public void resume() {
        checkOpen();
        store().storePaused(false);
        pausing.learned(false);
    }

    /** {@link MessageQueue#isPaused()}: as stored now. */
    public boolean isPaused() {
        checkOpen();
        boolean paused = store().paused();
        pausing.learned(paused);
        return paused;
    }

    /** The queue's counts. */
    public QueueStats stats() {
        checkOpen();
        return store().stats();
    }

    /** The queue's dead letters. */
    public DeadLetters<T> deadLetters() {
        checkOpen();
        return new Dead();
    }

    /** The {@link DeadLetters} of every queue: checks and decoding here, storage in the store. */
    private final class Dead implements DeadLetters<T> {

        private DeadLetterStore<T> stored() {
            checkOpen();
            return store().deadLetters();
        }

        @Override
        public long size() {
            return stored().size();
        }

        @Override
        public List<DeadLetter<T>> list(int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be positive: " + limit);
            }
            List<DeadLetterStore.Stored<T>> rows = stored().oldest(limit);
            List<DeadLetter<T>> out = new ArrayList<>(rows.size());
            for (DeadLetterStore.Stored<T> r : rows) {
                out.add(decoded(r));
            }
            return out;
        }

        @Override
        public Optional<DeadLetter<T>> find(MessageId id) {
            DeadLetterStore.Stored<T> r = stored().find(Objects.requireNonNull(id, "id"));
            return r == null ? Optional.empty() : Optional.of(decoded(r));
        }

        private DeadLetter<T> decoded(DeadLetterStore.Stored<T> r) {
            return DeadLetterDecoding.of(r.id(), r.attempts(), r.reason(), r.deadAt(), r.headers(), r.payload());
        }

        @Override
        public boolean requeue(MessageId id) {
            return stored().requeue(Objects.requireNonNull(id, "id"));
        }

        @Override
        public long requeueAll() {
            return stored().requeueAll();
        }

        @Override
        public boolean purge(MessageId id) {
            return stored().purge(Objects.requireNonNull(id, "id"));
        }

        @Override
        public long purge() {
            return stored().purgeAll();
        }

        @Override
        public String toString() {
            return "DeadLetters[" + label + "]";
        }
    }
}
