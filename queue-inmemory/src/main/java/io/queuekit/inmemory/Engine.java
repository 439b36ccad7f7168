package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.inmemory.Msg.State;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.Delays;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.QueueRuntime;
import io.queuekit.internal.QueueStore;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * One object on an in-memory queue (a message queue, a delay queue, or one object on a topic's
 * group), over the {@link Contents} it shares with the other objects on that queue, laid out like
 * the Redis transports: bodies by id, a ready list, a due-time set for delayed messages and
 * retries, a lease set for messages in flight, and dead letters in the order they died; with
 * storing and the moves time makes. Receiving is {@link Waiting}'s, settling and leases {@link Leasing}'s, dead letters
 * {@link Graveyard}'s; every one of them works under this engine's lock.
 *
 * <p>Time moves things lazily at the start of every operation, as of the clock's instant: delayed
 * messages fall due, in due order, and leases expire. The easy thing to get wrong: an expired
 * lease goes back to ready (or to the dead letters, on its last attempt) only when a receive reaps
 * it, behind what is ready by then, as a claim on Redis does; until then it counts as ready and
 * its delivery owns nothing.
 */
final class Engine<T> implements QueueStore<T> {
    private final String name;
    private final Clock clock;
    final ManualClock manualClock;
    final Duration visibilityTimeout;
    final int maxAttempts;
    final int claimBatch;
    /** At-least-once: hand-outs are leased. */
    final boolean leases;

    private final Semantics semantics;
    final QueueRuntime<T> runtime;
    final QueueMetrics.Observer observer;
    private final Payloads<T> bodies;

    /** What the queue holds, shared with every other object on it; the fields below are its. */
    final Contents contents;

    final ReentrantLock lock;
    final Condition changed;
    // guarded by lock
    final Map<MessageId, Msg> stored;
    final MsgList ready;
    private final TreeSet<Msg> delayed;
    final Leases leased;
    private final MsgList expired;

    final Waiting<T> waiting;
    final Sending<T> sending;
    final Leasing<T> leasing;
    final Graveyard<T> graveyard;
    private final Runnable wakeUp;

    /** The only object on a queue of its own. */
    Engine(Settings<T> s, Semantics semantics) {
        this(s, semantics, new Contents(), Settings.metricsNamespace());
    }

    /**
     * One object on the queue that holds {@code contents}.
     *
     * @param namespace the metrics' namespace: the same for every object on one queue
     */
    Engine(Settings<T> s, Semantics semantics, Contents contents, String namespace) {
        this.contents = contents;
        this.lock = contents.lock;
        this.changed = contents.changed;
        this.stored = contents.stored;
        this.ready = contents.ready;
        this.delayed = contents.delayed;
        this.leased = contents.leased;
        this.expired = contents.expired;
        this.name = s.name;
        this.clock = s.clock;
        this.manualClock = s.clock instanceof ManualClock ? (ManualClock) s.clock : null;
        this.visibilityTimeout = s.visibilityTimeout;
        this.maxAttempts = s.maxAttempts;
        this.claimBatch = s.claimBatch;
        this.leases = semantics.redelivers();
        this.semantics = semantics;
        this.runtime = new QueueRuntime<>(
                name, name, semantics.transport(), namespace, s.metrics, s.observations, maxAttempts, s.bodies());
        this.bodies = runtime.payloads();
        this.observer = runtime.observer();
        this.waiting = new Waiting<>(this);
        this.sending = new Sending<>(this);
        this.leasing = new Leasing<>(this);
        this.graveyard = new Graveyard<>(this, s.deadLetterRetention);
        this.wakeUp = () -> {
            waiting.wakeAll();
            runtime.runSchedulers();
        };
        if (manualClock != null) {
            manualClock.addListener(wakeUp);
        }
        runtime.attach(this);
    }

    /** The queue's lifecycle, consumers, metrics and dead letters, over this store. */
    QueueRuntime<T> runtime() {
        return runtime;
    }

    String name() {
        return name;
    }

    /**
     * Throws {@link QueueClosedException} once this object is closed (not while it is closing), or
     * its queue deleted; under the lock where that matters.
     */
    void checkOpen() {
        runtime.checkOpen();
        checkNotDeleted();
    }

    /** Throws {@link QueueClosedException} once the queue was deleted: a topic's group. */
    void checkNotDeleted() {
        if (contents.deleted) {
            throw new QueueClosedException(runtime.label() + ", whose group was deleted,");
        }
    }

    Semantics semantics() {
        return semantics;
    }

    Payloads<T> bodies() {
        return bodies;
    }

    Instant now() {
        return clock.instant();
    }

    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return waiting.receive(max, timeoutNanos);
    }

    @Override
    public DeadLetterStore<T> deadLetters() {
        return graveyard;
    }

    @Override
    public LeaseKeeper leaseKeeper() {
        return leases ? leasing.new Holds() : LeaseKeeper.none();
    }

    // ---- storing (the checks and observations of every send are Sending's)

    /** Stores every body under a generated id, ready now, in one step under the lock. */
    List<MessageId> storeReady(List<Object> encoded) {
        List<MessageId> ids = new ArrayList<>(encoded.size());
        lock.lock();
        try {
            checkOpen();
            Instant now = now();
            promote(now);
            for (Object body : encoded) {
                Msg m = new Msg(contents.generated.next(), body, now);
                stored.put(m.id, m);
                makeReady(m);
                ids.add(m.id);
            }
            if (!ids.isEmpty()) {
                observer.sent(ids.size());
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return List.copyOf(ids);
    }

    /**
     * Stores every body under a generated id, each due at its time in {@code dueTimes(now)} (one
     * per body, in order), in one step under the lock, so no consumer sees part of the batch.
     * Everything that can be refused was checked before, but for the due times, which
     * {@code dueTimes} checks against the clock here before anything is stored.
     */
    List<MessageId> storeAll(List<Object> encoded, Function<Instant, List<Instant>> dueTimes) {
        List<MessageId> ids = new ArrayList<>(encoded.size());
        lock.lock();
        try {
            checkOpen();
            Instant now = now();
            List<Instant> due = dueTimes.apply(now);
            promote(now);
            for (int i = 0; i < encoded.size(); i++) {
                Msg m = new Msg(contents.generated.next(), encoded.get(i), now);
                stored.put(m.id, m);
                enqueue(m, due.get(i), now);
                ids.add(m.id);
            }
            if (!ids.isEmpty()) {
                observer.sent(ids.size());
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return List.copyOf(ids);
    }

    /**
     * Stores under {@code id} (a generated one when null) unless it is taken; due after
     * {@code delay}, or at {@code dueAt}. Returns the id, or null if it was taken.
     */
    MessageId store(MessageId id, Object body, Duration delay, Instant dueAt) {
        lock.lock();
        try {
            checkOpen();
            Instant now = now();
            if (dueAt != null) {
                Delays.dueAt(dueAt, now);
            }
            promote(now);
            if (id == null) {
                id = contents.generated.next();
            } else if (stored.containsKey(id)) {
                return null;
            }
            Msg m = new Msg(id, body, now);
            stored.put(id, m);
            enqueue(m, dueAt != null ? dueAt : now.plus(delay), now);
            observer.sent(1);
            // one message needs one waiter: the one woken takes it, or re-times its wait to it;
            // waking every waiter made each send cost a round of futile wake-ups. Onto a ready list
            // that was not empty, one is on its way already, and takers pass the wake on
            if (m.state != State.READY || ready.size() == 1) {
                changed.signal();
            }
            return id;
        } finally {
            lock.unlock();
        }
    }

    boolean cancel(MessageId id) {
        Objects.requireNonNull(id, "id");
        lock.lock();
        try {
            checkOpen();
            Instant now = now();
            promote(now);
            Msg m = stored.get(id);
            if (m == null) {
                return false;
            }
            if (m.state == State.EXPIRED) {
                reapOne(m, now); // as cancel.lua does: back to waiting, unless that was its last attempt
            }
            if (m.state == State.READY) {
                ready.remove(m);
            } else if (m.state == State.DELAYED) {
                delayed.remove(m);
            } else {
                return false;
            }
            stored.remove(id);
            return true;
        } finally {
            lock.unlock();
        }
    }

    // ---- time-driven moves

    /**
     * Moves what is due by {@code now}: delayed messages to ready, in due order; expired leases out
     * of flight, to wait for a receive to reap them. A lease its managed consumer holds lasts.
     */
    void promote(Instant now) {
        while (!delayed.isEmpty() && !delayed.first().dueAt.isAfter(now)) {
            makeReady(delayed.pollFirst());
        }
        Msg l;
        while ((l = leased.first()) != null && !l.leaseExpiry.isAfter(now)) {
            if (!l.holdSeen && l.delivery.hold() != null) {
                leasing.seeHold(l); // the hold may keep it: look again
            } else {
                leased.remove(l);
                l.delivery = null;
                l.state = State.EXPIRED;
                expired.addLast(l);
            }
        }
    }

    /**
     * What a receive does first, as a claim on Redis does: promotes, then returns every expired
     * lease to ready, behind what is ready by then, or to the dead letters on its last attempt.
     */
    void reap(Instant now) {
        promote(now);
        for (Msg m = expired.first(); m != null; m = expired.first()) {
            if (!reapOne(m, now)) {
                observer.redelivered(1);
            }
        }
    }

    /** Reaps one expired lease; true if it was buried. */
    private boolean reapOne(Msg m, Instant now) {
        expired.remove(m);
        if (m.attempts >= maxAttempts) {
            graveyard.bury(m, "lease expired on attempt " + m.attempts + " of " + maxAttempts, now); // as on Redis
            observer.deadLettered();
            return true;
        }
        makeReady(m);
        return false;
    }

    /** When the next delayed message falls due or lease expires; null if none. */
    Instant nextEvent() {
        Instant next = null;
        if (!delayed.isEmpty()) {
            next = delayed.first().dueAt;
        }
        Msg l = leased.first();
        if (l != null && (next == null || l.leaseExpiry.isBefore(next))) {
            next = l.leaseExpiry;
        }
        return next;
    }

    /** Makes {@code m} ready, or delayed until {@code dueAt}; a due time in the past means now. */
    void enqueue(Msg m, Instant dueAt, Instant now) {
        if (dueAt.isAfter(now)) {
            m.state = State.DELAYED;
            m.dueAt = dueAt;
            m.seq = ++contents.sequence;
            delayed.add(m);
            waiting.eventAt(m.dueAt);
        } else {
            // behind what is already ready
            promote(now);
            makeReady(m);
        }
    }

    void makeReady(Msg m) {
        contents.makeReady(m);
    }

    // ---- the store's side of stats and closing

    @Override
    public QueueStats stats() {
        lock.lock();
        try {
            checkNotDeleted();
            promote(now());
            // an expired lease counts as ready, even on its last attempt, as on Redis: a receive reaps it
            return new QueueStats(
                    ready.size() + expired.size(), leased.size(), delayed.size(), graveyard.count(), contents.paused);
        } finally {
            lock.unlock();
        }
    }

    /** Sets the flag under the lock; a resume wakes every waiter, to take what is ready. */
    @Override
    public void storePaused(boolean pause) {
        lock.lock();
        try {
            checkOpen();
            contents.paused = pause;
            if (!pause) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean paused() {
        lock.lock();
        try {
            return contents.paused;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes blocked callers, which see that receiving is refused. */
    @Override
    public void receivingStopped() {
        waiting.wakeAll();
    }

    @Override
    public void closed() {
        if (manualClock != null) {
            manualClock.removeListener(wakeUp);
        }
    }
}
