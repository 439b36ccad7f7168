package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.internal.Checks;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How an {@link Engine}'s receivers take ready messages and wait for them, under its lock:
 * condition waits, woken by sends, settles, close and advances of a manual clock, and on any
 * other clock also timed to end when the next delayed message or lease falls due.
 *
 * <p>The easy thing to get wrong: a send wakes one waiter, not all, and a taker that leaves
 * messages ready wakes the next, as the JDK's LinkedBlockingQueue does; so every waiter looks for
 * ready messages under the lock before it waits.
 */
final class Waiting<T> {
    private final Engine<T> engine;
    /**
     * Threads waiting for ready messages, and on the system clock a time by which each of them
     * wakes by itself to look again (null: some may wait for good); a waiter who began waiting
     * with none before it starts it afresh, so it does not stay early for good. Guarded by the
     * engine's lock.
     */
    private int waiters;
    private Instant wakeBy;

    Waiting(Engine<T> engine) {
        this.engine = engine;
    }

    List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        if (timeoutNanos > 0) {
            return pollBatch(max, timeoutNanos, TimeUnit.NANOSECONDS);
        }
        engine.lock.lock();
        try {
            engine.runtime.checkReceiving();
            Instant now = engine.now();
            engine.promote(now);
            return engine.ready.isEmpty() ? List.of() : deliver(Math.min(max, engine.claimBatch), now);
        } finally {
            engine.lock.unlock();
        }
    }

    Delivery<T> poll() {
        engine.lock.lock();
        try {
            engine.runtime.checkReceiving();
            Instant now = engine.now();
            engine.promote(now);
            return engine.ready.isEmpty() ? null : deliverOne(now);
        } finally {
            engine.lock.unlock();
        }
    }

    Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = Checks.timeoutNanos(timeout, unit);
        lockForFetch();
        try {
            Instant now = awaitReady(nanos);
            return now == null ? null : deliverOne(now);
        } finally {
            engine.lock.unlock();
        }
    }

    Delivery<T> take() throws InterruptedException {
        lockForFetch();
        try {
            return deliverOne(awaitReady(-1));
        } finally {
            engine.lock.unlock();
        }
    }

    List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        Checks.batchSize(maxMessages);
        long nanos = Checks.timeoutNanos(timeout, unit);
        lockForFetch();
        try {
            Instant now = awaitReady(nanos);
            return now == null ? List.of() : deliver(Math.min(maxMessages, engine.claimBatch), now);
        } finally {
            engine.lock.unlock();
        }
    }

    private void lockForFetch() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        engine.lock.lockInterruptibly();
    }

    /**
     * Under the lock: waits for ready messages and returns the instant they were found ready at,
     * or null once the wait timed out. The timeout is real time, never the queue's clock: a test
     * holding a {@link ManualClock} still gets its {@code poll} back. As in the JDK's blocking
     * queues it runs once the lock is held, so a caller that finds a message ready reads no timer.
     *
     * @param nanos negative, or beyond a century, to wait as long as it takes
     */
    private Instant awaitReady(long nanos) throws InterruptedException {
        boolean forever = nanos < 0 || nanos > TimeUnit.DAYS.toNanos(36_500);
        long left = nanos;
        while (true) {
            engine.runtime.checkReceiving();
            Instant now = engine.now();
            engine.promote(now);
            if (!engine.ready.isEmpty()) {
                return now;
            }
            long wait = Long.MAX_VALUE;
            if (!forever) {
                if (left <= 0) {
                    return null;
                }
                wait = left;
            }
            if (engine.manualClock == null) {
                wait = Math.min(wait, nanosUntil(now, engine.nextEvent()));
                // by then this waiter looks again by itself: only something due earlier must wake it
                Instant wakes = wakeTime(now, wait);
                wakeBy = waiters == 0 ? wakes : later(wakeBy, wakes);
            }
            waiters++;
            try {
                if (wait == Long.MAX_VALUE) {
                    engine.changed.await();
                } else {
                    long unslept = engine.changed.awaitNanos(wait);
                    left -= wait - unslept;
                }
            } finally {
                waiters--;
            }
        }
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
     * wakes them itself when it advances. Under the lock.
     */
    void eventAt(Instant at) {
        if (engine.manualClock == null && waiters > 0 && (wakeBy == null || at.isBefore(wakeBy))) {
            wakeBy = at;
            engine.changed.signalAll();
        }
    }

    /** Wakes every waiter: to see that receiving is refused, or what a clock advance made ready. */
    void wakeAll() {
        engine.lock.lock();
        try {
            engine.changed.signalAll();
        } finally {
            engine.lock.unlock();
        }
    }

    private List<Delivery<T>> deliver(int max, Instant now) {
        MsgList ready = engine.ready;
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
        Msg m = engine.ready.first();
        engine.ready.remove(m);
        passOnWake();
        return handOut(m, now);
    }

    /**
     * What is left ready wakes one more waiter, who passes it on in turn, as the takers of the
     * JDK's LinkedBlockingQueue do: so a send onto a ready list that was not empty need not wake
     * anyone, and the producer does not pay a wake-up for every message.
     */
    private void passOnWake() {
        if (waiters > 0 && !engine.ready.isEmpty()) {
            engine.changed.signal();
        }
    }

    /** Hands out a message just taken from the ready list: leased (at-least-once), or gone. */
    private InMemoryDelivery<T> handOut(Msg m, Instant now) {
        m.attempts++;
        InMemoryDelivery<T> d;
        if (engine.leases) {
            m.state = Msg.State.IN_FLIGHT;
            m.lease = engine.leasing.nextLease();
            m.leaseExpiry = now.plus(engine.visibilityTimeout);
            m.holdSeen = false;
            m.held = false;
            engine.leased.add(m);
            eventAt(m.leaseExpiry);
            d = new InMemoryDelivery<>(engine, m, m.attempts, m.lease);
            m.delivery = d;
        } else {
            engine.stored.remove(m.id);
            d = new InMemoryDelivery<>(engine, m, m.attempts, 0);
        }
        engine.observer.delivered(Duration.between(m.enqueuedAt, now));
        return d;
    }
}
