package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.Delays;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.QueueRuntime;
import io.queuekit.internal.QueueStore;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The state and rules shared by the in-memory message queue and delay queue, laid out like the
 * Redis transports: bodies by id, a ready list, a due-time set for delayed messages and retries, a
 * lease set for messages in flight, and dead letters in the order they died.
 *
 * <p>Time-driven moves (a delayed message falling due, a lease expiring) happen lazily at the
 * start of every operation, in the order of the times they were due, so what a caller sees is
 * always the state as of the clock's current instant, whether or not anyone was waiting; except
 * that inspections (stats, dead letters) leave expired leases in flight, as Redis does until a
 * receive: stats count them as ready.
 */
final class Engine<T> implements QueueStore<T> {
    private enum State { DELAYED, READY, IN_FLIGHT, DEAD, GONE }

    /** One stored message; sort keys change only while it is out of the sorted sets. */
    static final class Msg {
        final MessageId id;
        final Object body;
        final Instant enqueuedAt;
        State state;
        int attempts;
        long seq;
        Instant dueAt;
        long lease;
        Instant leaseExpiry;
        /** The hand-out that holds the lease (at-least-once, while in flight). */
        InMemoryDelivery<?> delivery;
        /** Its neighbours on the one {@link MsgList} it is on, if any: ready, or in flight. */
        Msg previous;
        Msg next;
        /** In flight: whether {@link Leases} keeps it on its list. */
        boolean listed;
        /** Whether the hold its managed consumer asked for was looked at, and whether it holds. */
        boolean holdSeen;
        boolean held;
        String reason;
        Instant deadAt;

        Msg(MessageId id, Object body, Instant enqueuedAt) {
            this.id = id;
            this.body = body;
            this.enqueuedAt = enqueuedAt;
        }
    }

    private static final Comparator<Msg> BY_DUE =
            Comparator.<Msg, Instant>comparing(m -> m.dueAt).thenComparingLong(m -> m.seq);

    private final String name;
    private final Clock clock;
    private final ManualClock manualClock;
    private final Duration visibilityTimeout;
    private final int maxAttempts;
    private final int deadLetterRetention;
    private final int claimBatch;
    private final Payloads<T> bodies;
    private final boolean leases;
    private final Semantics semantics;
    private final Runnable wakeUp = this::wakeAll;
    private final QueueRuntime<T> runtime;
    private final QueueMetrics.Observer observer;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<MessageId, Msg> stored = new HashMap<>();
    private final MsgList ready = new MsgList();
    private final TreeSet<Msg> delayed = new TreeSet<>(BY_DUE);
    private final Leases leased = new Leases();
    private final LinkedHashMap<MessageId, Msg> buried = new LinkedHashMap<>();
    private final Dead dead = new Dead();
    private long sequence;
    private long leaseSequence;
    private long idSequence;
    private final byte[] idChars = new byte[14]; // the mark and a long in base 36
    /**
     * Threads waiting for ready messages, and on the system clock a time by which each of them
     * wakes by itself to look again (null: some may wait for good); a waiter who began waiting
     * with none before it starts it afresh, so it does not stay early for good.
     */
    private int waiters;
    private Instant wakeBy;

    Engine(Settings<T> s, Semantics semantics) {
        this.name = s.name;
        this.clock = s.clock;
        this.manualClock = s.clock instanceof ManualClock ? (ManualClock) s.clock : null;
        this.visibilityTimeout = s.visibilityTimeout;
        this.maxAttempts = s.maxAttempts;
        this.deadLetterRetention = s.deadLetterRetention;
        this.claimBatch = s.claimBatch;
        this.leases = semantics.redelivers();
        this.semantics = semantics;
        this.runtime = new QueueRuntime<>(name, name, semantics.transport(), Settings.metricsNamespace(), s.metrics,
                maxAttempts, s.bodies());
        this.bodies = runtime.payloads();
        this.observer = runtime.observer();
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

    Semantics semantics() {
        return semantics;
    }

    Payloads<T> bodies() {
        return bodies;
    }

    @Override
    public DeadLetterStore<T> deadLetters() {
        return dead;
    }

    @Override
    public LeaseKeeper leaseKeeper() {
        return leases ? new Holds() : LeaseKeeper.none();
    }

    // ---- storing

    MessageId send(T payload) {
        Object body = bodies.store(Objects.requireNonNull(payload, "payload"));
        return store(null, body, Duration.ZERO, null);
    }

    List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> copy = Checks.payloads(payloads);
        List<Object> encoded = new ArrayList<>(copy.size());
        for (T p : copy) {
            encoded.add(bodies.store(p));
        }
        List<MessageId> ids = new ArrayList<>(encoded.size());
        lock.lock();
        try {
            ensureOpen();
            Instant now = now();
            promote(now);
            for (Object body : encoded) {
                Msg m = new Msg(newId(), body, now);
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

    MessageId schedule(T payload, Duration delay) {
        Objects.requireNonNull(payload, "payload");
        return store(null, bodies.store(payload), Delays.delay(delay), null);
    }

    MessageId scheduleAt(T payload, Instant dueAt) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(dueAt, "dueAt");
        return store(null, bodies.store(payload), null, dueAt);
    }

    boolean schedule(MessageId id, T payload, Duration delay) {
        Checks.callerId(id);
        Objects.requireNonNull(payload, "payload");
        return store(id, bodies.store(payload), Delays.delay(delay), null) != null;
    }

    boolean scheduleAt(MessageId id, T payload, Instant dueAt) {
        Checks.callerId(id);
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(dueAt, "dueAt");
        return store(id, bodies.store(payload), null, dueAt) != null;
    }

    List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
        List<T> copy = Checks.payloads(payloads);
        List<Object> encoded = encodeAll(copy);
        Duration d = Delays.delay(delay);
        return storeAll(encoded, now -> Collections.nCopies(encoded.size(), now.plus(d)));
    }

    List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
        List<T> copy = Checks.payloads(payloads);
        Objects.requireNonNull(dueAt, "dueAt");
        return storeAll(encodeAll(copy), now -> Collections.nCopies(copy.size(), Delays.dueAt(dueAt, now)));
    }

    List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages) {
        List<Scheduled<? extends T>> copy = Checks.scheduled(messages);
        List<T> payloads = new ArrayList<>(copy.size());
        for (Scheduled<? extends T> m : copy) {
            payloads.add(m.payload());
        }
        return storeAll(encodeAll(payloads), now -> Delays.dueTimes(copy, now));
    }

    private List<Object> encodeAll(List<T> payloads) {
        List<Object> encoded = new ArrayList<>(payloads.size());
        for (T p : payloads) {
            encoded.add(bodies.store(p));
        }
        return encoded;
    }

    /**
     * Stores every body under a generated id, each due at its time in {@code dueTimes(now)} (one
     * per body, in order), in one step under the lock, so no consumer sees part of the batch.
     * Everything that can be refused was checked before, but for the due times, which
     * {@code dueTimes} checks against the clock here before anything is stored.
     */
    private List<MessageId> storeAll(List<Object> encoded, Function<Instant, List<Instant>> dueTimes) {
        List<MessageId> ids = new ArrayList<>(encoded.size());
        lock.lock();
        try {
            ensureOpen();
            Instant now = now();
            List<Instant> due = dueTimes.apply(now);
            promote(now);
            for (int i = 0; i < encoded.size(); i++) {
                Msg m = new Msg(newId(), encoded.get(i), now);
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
     * A generated id: the mark, then a counter in base 36, as the Redis queues make them. Written
     * into one buffer (under the lock), since every send makes one: concatenating a
     * {@code Long.toString} made two strings of it.
     */
    private MessageId newId() {
        long n = ++idSequence;
        int at = idChars.length;
        do {
            idChars[--at] = (byte) Character.forDigit((int) (n % 36), 36);
            n /= 36;
        } while (n > 0);
        idChars[--at] = (byte) MessageId.GENERATED_MARK;
        return MessageId.of(new String(idChars, at, idChars.length - at, StandardCharsets.ISO_8859_1));
    }

    /**
     * Stores under {@code id} (a generated one when null) unless it is taken; due after
     * {@code delay}, or at {@code dueAt}. Returns the id, or null if it was taken.
     */
    private MessageId store(MessageId id, Object body, Duration delay, Instant dueAt) {
        lock.lock();
        try {
            ensureOpen();
            Instant now = now();
            if (dueAt != null) {
                Delays.dueAt(dueAt, now);
            }
            promote(now);
            if (id == null) {
                id = newId();
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
            ensureOpen();
            promote(now());
            Msg m = stored.get(id);
            if (m == null) {
                return false;
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

    // ---- receiving

    Delivery<T> poll() {
        lock.lock();
        try {
            ensureReceiving();
            Instant now = now();
            promote(now);
            return ready.isEmpty() ? null : deliverOne(now);
        } finally {
            lock.unlock();
        }
    }

    Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = Checks.timeoutNanos(timeout, unit);
        lockForFetch();
        try {
            Instant now = awaitReady(nanos);
            return now == null ? null : deliverOne(now);
        } finally {
            lock.unlock();
        }
    }

    Delivery<T> take() throws InterruptedException {
        lockForFetch();
        try {
            return deliverOne(awaitReady(-1));
        } finally {
            lock.unlock();
        }
    }

    List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        Checks.batchSize(maxMessages);
        long nanos = Checks.timeoutNanos(timeout, unit);
        lockForFetch();
        try {
            Instant now = awaitReady(nanos);
            return now == null ? List.of() : deliver(Math.min(maxMessages, claimBatch), now);
        } finally {
            lock.unlock();
        }
    }

    private void lockForFetch() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        lock.lockInterruptibly();
    }

    /**
     * Under the lock: waits for ready messages and returns the instant they were found ready at,
     * or null once the wait timed out. The timeout is real time, never the queue's clock: a test
     * holding a {@link ManualClock} still gets its {@code poll} back. As in the JDK's blocking
     * queues it runs once the lock is held, so a caller that finds a message ready reads no timer.
     * Waits are condition waits, woken by sends, settles, close, and advances of a manual clock;
     * with any other clock they are also timed to end when the next delayed message or lease falls
     * due.
     *
     * @param nanos negative, or beyond a century, to wait as long as it takes
     */
    private Instant awaitReady(long nanos) throws InterruptedException {
        boolean forever = nanos < 0 || nanos > TimeUnit.DAYS.toNanos(36_500);
        long left = nanos;
        while (true) {
            ensureReceiving();
            Instant now = now();
            promote(now);
            if (!ready.isEmpty()) {
                return now;
            }
            long wait = Long.MAX_VALUE;
            if (!forever) {
                if (left <= 0) {
                    return null;
                }
                wait = left;
            }
            if (manualClock == null) {
                wait = Math.min(wait, nanosUntil(now, nextEvent()));
                // by then this waiter looks again by itself: only something due earlier must wake it
                Instant wakes = wakeTime(now, wait);
                wakeBy = waiters == 0 ? wakes : later(wakeBy, wakes);
            }
            waiters++;
            try {
                if (wait == Long.MAX_VALUE) {
                    changed.await();
                } else {
                    long unslept = changed.awaitNanos(wait);
                    left -= wait - unslept;
                }
            } finally {
                waiters--;
            }
        }
    }

    /** When the next delayed message falls due or lease expires; null if none. */
    private Instant nextEvent() {
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

    private static long nanosUntil(Instant now, Instant next) {
        if (next == null) {
            return Long.MAX_VALUE;
        }
        try {
            return Math.max(1, Duration.between(now, next).toNanos());
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** When a wait of {@code nanos} from {@code now} ends; null for never, or past the end of time. */
    private static Instant wakeTime(Instant now, long nanos) {
        if (nanos == Long.MAX_VALUE) {
            return null;
        }
        try {
            return now.plusNanos(nanos);
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }

    /** The later of two wake-up times, null meaning never. */
    private static Instant later(Instant a, Instant b) {
        return a == null || b == null ? null : a.isAfter(b) ? a : b;
    }

    /**
     * Something will become ready at {@code at} (a lease expires, a delayed message falls due).
     * Waiters on the system clock timed their waits to end by {@link #wakeBy} at the latest; one
     * earlier than that wakes them to wait again, so none waits past it. Waking them for anything
     * later would be a round of futile wake-ups: every hand-out starts a lease. A manual clock
     * wakes them itself when it advances.
     */
    private void eventAt(Instant at) {
        if (manualClock == null && waiters > 0 && (wakeBy == null || at.isBefore(wakeBy))) {
            wakeBy = at;
            changed.signalAll();
        }
    }

    private List<Delivery<T>> deliver(int max, Instant now) {
        List<Delivery<T>> out = new ArrayList<>(Math.min(max, ready.size()));
        try {
            while (!ready.isEmpty() && out.size() < max) {
                Msg m = ready.first();
                ready.remove(m);
                out.add(handOut(m, now));
            }
        } finally {
            passOnWake(); // whatever happened, what is left ready has a taker woken
        }
        return out;
    }

    /** The oldest ready message, handed out; there is one. */
    private InMemoryDelivery<T> deliverOne(Instant now) {
        Msg m = ready.first();
        ready.remove(m);
        passOnWake();
        return handOut(m, now);
    }

    /**
     * What is left ready wakes one more waiter, who passes it on in turn, as the takers of the
     * JDK's LinkedBlockingQueue do: so a send onto a ready list that was not empty need not wake
     * anyone, and the producer does not pay a wake-up for every message.
     */
    private void passOnWake() {
        if (waiters > 0 && !ready.isEmpty()) {
            changed.signal();
        }
    }

    /** Hands out a message just taken from the ready list: leased (at-least-once), or gone. */
    private InMemoryDelivery<T> handOut(Msg m, Instant now) {
        m.attempts++;
        InMemoryDelivery<T> d;
        if (leases) {
            m.state = State.IN_FLIGHT;
            m.lease = ++leaseSequence;
            m.leaseExpiry = now.plus(visibilityTimeout);
            m.holdSeen = false;
            m.held = false;
            leased.add(m);
            eventAt(m.leaseExpiry);
            d = new InMemoryDelivery<>(this, m, m.attempts, m.lease);
            m.delivery = d;
        } else {
            stored.remove(m.id);
            d = new InMemoryDelivery<>(this, m, m.attempts, 0);
        }
        observer.delivered(Duration.between(m.enqueuedAt, now));
        return d;
    }

    // ---- settling

    boolean ack(InMemoryDelivery<T> d) {
        lock.lock();
        try {
            ensureOpen();
            if (!leases) {
                return d.settled().settleAtMostOnce(observer::acked);
            }
            Msg m = owned(d, now());
            if (m == null) {
                return false;
            }
            leased.remove(m);
            stored.remove(m.id);
            m.state = State.GONE;
            settledBy(m, d);
            observer.acked();
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean retry(InMemoryDelivery<T> d, Duration delay) {
        Delays.retryDelay(delay);
        lock.lock();
        try {
            ensureOpen();
            Instant now = now();
            Msg m = settle(d, now);
            if (m == null) {
                return false;
            }
            enqueue(m, now.plus(delay), now);
            observer.retried();
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean deadLetter(InMemoryDelivery<T> d, String reason) {
        lock.lock();
        try {
            ensureOpen();
            Instant now = now();
            Msg m = settle(d, now);
            if (m == null) {
                return false;
            }
            bury(m, reason == null ? "" : reason, now);
            observer.deadLettered();
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean extendLease(InMemoryDelivery<T> d, Duration duration) {
        Checks.leaseDuration(duration);
        lock.lock();
        try {
            ensureOpen();
            if (!leases) {
                return !d.settled().isSettled();
            }
            Instant now = now();
            Msg m = owned(d, now);
            if (m == null) {
                return false;
            }
            seeHold(m); // asked for before this call, so it counts first
            setLease(m, now.plus(duration));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The lease keeper of managed consumers, on the queue's clock: a held message's lease lasts at
     * least until the limit plus one visibility timeout, as periodic renewal would make it, and on
     * release it is left as if just renewed. So a virtual clock advanced in one step far past the
     * lease still keeps a message whose handler runs. One per {@code consume} call: closing it
     * (once the consumer's shutdown timeout has passed) releases what its handlers still hold, so
     * a hung handler's message comes back after one visibility timeout, as on Redis.
     *
     * <p>Holding costs no lock: the hold is noted on the delivery with the time it was asked for,
     * and applied under the lock, as of that time, when it first matters: before the lease would
     * expire, and before anything else of the delivery's reads or moves the lease. A handler that
     * settles its message within the lease, the usual case, so never has its hold applied, and its
     * release, finding the message settled by that very delivery, needs no lock either.
     */
    private final class Holds implements LeaseKeeper {
        /** Deliveries held a second time, under the lock (not what consumers do); held till released. */
        private final Set<InMemoryDelivery<?>> heldAgain = ConcurrentHashMap.newKeySet();
        private volatile boolean closed;

        @Override
        public void close() {
            closed = true;
            List<InMemoryDelivery<?>> mine = new ArrayList<>(heldAgain);
            lock.lock();
            try {
                leased.forEach(m -> {
                    Engine<?>.Held h = m.delivery == null ? null : m.delivery.hold();
                    if (h != null && h.keeper == this) {
                        mine.add(m.delivery);
                    }
                });
            } finally {
                lock.unlock();
            }
            for (InMemoryDelivery<?> d : mine) {
                release(d);
            }
        }

        @Override
        public Hold hold(Delivery<?> delivery, Duration limit) {
            if (!(delivery instanceof InMemoryDelivery<?> any) || any.engine() != Engine.this || limit.isZero()
                    || runtime.isClosed()) {
                return () -> { };
            }
            @SuppressWarnings("unchecked") // its engine is this one
            InMemoryDelivery<T> d = (InMemoryDelivery<T>) any;
            Held h = new Held(this, d, now(), limit);
            if (!d.noteHold(h)) {
                holdAgain(d, limit);
            }
            if (closed) { // a close that scanned before the hold was noted releases it here
                release(d);
            }
            return h;
        }

        /** A second hold of one delivery, applied at once. */
        private void holdAgain(InMemoryDelivery<?> d, Duration limit) {
            lock.lock();
            try {
                Instant now = now();
                Msg m = owned(d, now);
                if (m == null) {
                    return;
                }
                seeHold(m);
                applyHold(m, now.plus(limit).plus(visibilityTimeout));
                heldAgain.add(d);
            } finally {
                lock.unlock();
            }
        }

        private void release(InMemoryDelivery<?> d) {
            if (!heldAgain.isEmpty()) {
                heldAgain.remove(d);
            }
            if (d.settledItsMessage()) {
                return; // it owns nothing any more, so it has no lease to leave
            }
            lock.lock();
            try {
                Instant now = now();
                Msg m = owned(d, now);
                if (m == null) {
                    return;
                }
                seeHold(m);
                if (!m.held) {
                    return;
                }
                m.held = false;
                Instant renewed = now.plus(visibilityTimeout);
                if (renewed.isBefore(m.leaseExpiry)) {
                    setLease(m, renewed);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A managed consumer's hold of one delivery's lease, noted on the delivery: by which keeper,
     * asked for when, for how long at most. Released through its keeper.
     */
    final class Held implements LeaseKeeper.Hold {
        private final Holds keeper;
        private final InMemoryDelivery<T> delivery;
        private final Instant at;
        private final Duration limit;

        private Held(Holds keeper, InMemoryDelivery<T> delivery, Instant at, Duration limit) {
            this.keeper = keeper;
            this.delivery = delivery;
            this.at = at;
            this.limit = limit;
        }

        @Override
        public void release() {
            keeper.release(delivery);
        }
    }

    /**
     * Applies, once, the hold noted on {@code m}'s delivery, as of when it was asked for: if the
     * lease still ran then, it lasts at least until then plus the limit and a visibility timeout.
     * {@code m} is in flight.
     */
    private void seeHold(Msg m) {
        if (m.holdSeen) {
            return;
        }
        Engine<?>.Held h = m.delivery.hold();
        if (h == null) {
            return;
        }
        m.holdSeen = true;
        if (h.at.isBefore(m.leaseExpiry)) {
            applyHold(m, h.at.plus(h.limit).plus(visibilityTimeout));
        }
    }

    private void applyHold(Msg m, Instant until) {
        if (until.isAfter(m.leaseExpiry)) {
            setLease(m, until);
        }
        m.held = true;
    }

    /** Moves an in-flight message's lease expiry, keeping the lease set in order. */
    private void setLease(Msg m, Instant expiry) {
        leased.remove(m);
        m.leaseExpiry = expiry;
        leased.add(m);
        eventAt(expiry);
    }

    /**
     * Takes the message back from the consumer for a retry or a dead letter: out of the lease set
     * (at-least-once), or stored again from the delivery's copy (at-most-once, best-effort).
     * Null if this delivery no longer owns it.
     */
    private Msg settle(InMemoryDelivery<T> d, Instant now) {
        if (leases) {
            Msg m = owned(d, now);
            if (m != null) {
                leased.remove(m);
                settledBy(m, d);
            }
            return m;
        }
        if (!d.settled().claim()) {
            return null;
        }
        Msg m = new Msg(d.id(), d.body(), d.enqueuedAt());
        m.attempts = d.attempt();
        stored.put(m.id, m);
        return m;
    }

    /** {@code d} settled {@code m}, taken out of the lease set: it owns nothing from now on. */
    private static void settledBy(Msg m, InMemoryDelivery<?> d) {
        m.delivery = null;
        d.markSettledItsMessage();
    }

    /**
     * The message {@code d} leases, as of {@code now}; null if its lease expired or it was settled.
     * Lease numbers are never reused, so a delivery owns its message while the message is in
     * flight under the delivery's lease.
     */
    private Msg owned(InMemoryDelivery<?> d, Instant now) {
        promote(now);
        Msg m = d.msg();
        return m != null && m.state == State.IN_FLIGHT && m.lease == d.lease() ? m : null;
    }

    // ---- time-driven moves

    /** Moves everything due by {@code now} (delayed messages, expired leases), earliest first. */
    private void promote(Instant now) {
        while (true) {
            Msg d = delayed.isEmpty() ? null : delayed.first();
            Msg l = leased.first();
            boolean delayedDue = d != null && !d.dueAt.isAfter(now);
            boolean leaseDue = l != null && !l.leaseExpiry.isAfter(now);
            if (!delayedDue && !leaseDue) {
                return;
            }
            if (delayedDue && (!leaseDue || !l.leaseExpiry.isBefore(d.dueAt))) {
                delayed.pollFirst();
                makeReady(d);
            } else if (!l.holdSeen && l.delivery.hold() != null) {
                seeHold(l); // the hold may keep it: look again
            } else {
                leased.remove(l);
                l.delivery = null;
                if (l.attempts >= maxAttempts) {
                    bury(l, "lease expired on attempt " + l.attempts + " of at most " + maxAttempts, now);
                    observer.deadLettered();
                } else {
                    makeReady(l);
                    observer.redelivered(1);
                }
            }
        }
    }

    /**
     * Moves the delayed messages due by {@code now} to ready and leaves expired leases to the next
     * receive, as on Redis: for inspections, which take no message out of flight.
     */
    private void promoteDelayed(Instant now) {
        while (!delayed.isEmpty() && !delayed.first().dueAt.isAfter(now)) {
            makeReady(delayed.pollFirst());
        }
    }

    /**
     * How many leases expired by {@code now}, once the holds noted on them (which may keep them)
     * count.
     */
    private int expiredLeases(Instant now) {
        List<Msg> expired = new ArrayList<>();
        leased.forEach(m -> {
            if (!m.leaseExpiry.isAfter(now)) {
                expired.add(m);
            }
        });
        int n = 0;
        for (Msg m : expired) {
            seeHold(m);
            n += m.leaseExpiry.isAfter(now) ? 0 : 1;
        }
        return n;
    }

    private void enqueue(Msg m, Instant dueAt, Instant now) {
        if (dueAt.isAfter(now)) {
            m.state = State.DELAYED;
            m.dueAt = dueAt;
            m.seq = ++sequence;
            delayed.add(m);
            eventAt(m.dueAt);
        } else {
            // a due time in the past means now: behind what is already ready
            promote(now);
            makeReady(m);
        }
    }

    private void makeReady(Msg m) {
        m.state = State.READY;
        m.seq = ++sequence;
        ready.addLast(m);
    }

    private void bury(Msg m, String reason, Instant now) {
        m.state = State.DEAD;
        m.reason = reason;
        m.deadAt = now;
        buried.put(m.id, m);
        Iterator<Msg> oldest = buried.values().iterator();
        while (buried.size() > deadLetterRetention) {
            Msg dropped = oldest.next();
            oldest.remove();
            stored.remove(dropped.id);
        }
    }

    // ---- the store's side of stats and closing

    /**
     * Counts as the Redis queues do: a lease that expired counts as ready, on its last attempt too,
     * until a receive returns it or buries it, and only dead letters count as dead.
     */
    @Override
    public QueueStats stats() {
        lock.lock();
        try {
            Instant now = now();
            promoteDelayed(now);
            int expired = expiredLeases(now);
            return new QueueStats(ready.size() + expired, leased.size() - expired, delayed.size(), buried.size());
        } finally {
            lock.unlock();
        }
    }

    /** Wakes blocked callers, which see that receiving is refused. */
    @Override
    public void receivingStopped() {
        wakeAll();
    }

    @Override
    public void closed() {
        if (manualClock != null) {
            manualClock.removeListener(wakeUp);
        }
    }

    private void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        runtime.checkOpen();
    }

    /** Receiving, and starting consumers, end as soon as closing begins. */
    private void ensureReceiving() {
        runtime.checkReceiving();
    }

    private Instant now() {
        return clock.instant();
    }

    /** The dead letters: read and moved under the lock, decoded by the runtime outside it. */
    private final class Dead implements DeadLetterStore<T> {

        @Override
        public long size() {
            lock.lock();
            try {
                promoteDelayed(now());
                return buried.size();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<Stored<T>> oldest(int limit) {
            List<Stored<T>> out = new ArrayList<>(Math.min(limit, 1024));
            lock.lock();
            try {
                promoteDelayed(now());
                for (Msg m : buried.values()) {
                    if (out.size() == limit) {
                        break;
                    }
                    out.add(stored(m));
                }
            } finally {
                lock.unlock();
            }
            return out;
        }

        @Override
        public Stored<T> find(MessageId id) {
            lock.lock();
            try {
                promoteDelayed(now());
                Msg m = buried.get(id);
                return m == null ? null : stored(m);
            } finally {
                lock.unlock();
            }
        }

        /** Its fields as they are now, read under the lock: a concurrent requeue clears them. */
        private Stored<T> stored(Msg m) {
            Object body = m.body;
            return new Stored<>(m.id, m.attempts, m.reason, m.deadAt, () -> bodies.load(body));
        }

        @Override
        public boolean requeue(MessageId id) {
            lock.lock();
            try {
                promoteDelayed(now());
                Msg m = buried.remove(id);
                if (m == null) {
                    return false;
                }
                revive(m);
                changed.signalAll();
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public long requeueAll() {
            lock.lock();
            try {
                promoteDelayed(now());
                long n = buried.size();
                for (Msg m : buried.values()) {
                    revive(m);
                }
                buried.clear();
                if (n > 0) {
                    changed.signalAll();
                }
                return n;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean purge(MessageId id) {
            lock.lock();
            try {
                promoteDelayed(now());
                if (buried.remove(id) == null) {
                    return false;
                }
                stored.remove(id);
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public long purgeAll() {
            lock.lock();
            try {
                promoteDelayed(now());
                long n = buried.size();
                for (MessageId id : buried.keySet()) {
                    stored.remove(id);
                }
                buried.clear();
                return n;
            } finally {
                lock.unlock();
            }
        }

        private void revive(Msg m) {
            m.attempts = 0;
            m.reason = null;
            m.deadAt = null;
            makeReady(m);
        }
    }
}
