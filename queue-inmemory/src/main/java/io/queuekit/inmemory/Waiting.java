package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How an {@link Engine}'s receivers take ready messages and wait for them, as the
 * {@link Receiver.Store} of the one receive loop, whose plan is {@link Receiver#takingWaits}: a
 * claim takes what is ready under the lock; a block is one condition wait under the lock, woken by
 * sends, settles, close and advances of a manual clock, and on any other clock also timed to end
 * when the next delayed message or lease falls due, after which it takes what is ready.
 *
 * <p>The easy thing to get wrong: a send wakes one waiter, not all, and a taker that leaves
 * messages ready wakes the next, as the JDK's LinkedBlockingQueue does; so a block looks for ready
 * messages under the lock before it waits, though a claim looked just before it.
 */
final class Waiting<T> implements Receiver.Store<T, Receiver.CarriedAck> {
    /** The in-memory queue has no ack to carry with a fetch: an ack costs a lock, not a round trip. */
    private static final Receiver.CarriedAck NO_ACK = () -> {};

    private final Engine<T> engine;
    private final Receiver<T, Receiver.CarriedAck> receiver;
    /**
     * The threads waiting for ready messages, on every object of the queue, and on the system
     * clock a time by which each of them wakes by itself to look again (null: some may wait for
     * good); a waiter who began waiting with none before it starts it afresh, so it does not stay
     * early for good. Guarded by the engine's lock.
     */
    private final Contents waits;

    Waiting(Engine<T> engine) {
        this.engine = engine;
        this.waits = engine.contents;
        // a claim first, so that a receive looks once even if its timeout passed before the plan
        // asked; and blocks as long as asked, since a condition wait notices a close at once
        this.receiver = new Receiver<>(
                engine.runtime, this, Receiver.takingWaits(System::nanoTime, Long.MAX_VALUE, max -> true));
    }

    /** The store's receive: its timeout is real time, whatever the queue's clock. */
    List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiver.receive(Math.min(max, engine.claimBatch), timeoutNanos, NO_ACK);
    }

    @Override
    public Receiver.Claimed<T> claim(int max, Receiver.CarriedAck ack) {
        engine.lock.lock();
        try {
            engine.runtime.checkReceiving();
            engine.checkNotDeleted();
            Instant now = engine.now();
            return new Receiver.Claimed<>(takeReady(max, now), epochMillis(now), WakeUps.NONE);
        } finally {
            engine.lock.unlock();
        }
    }

    /**
     * Takes what is ready, or else waits once, up to {@code millis} (real time) and, on the
     * system clock, no later than the next event, then takes what is ready by then. Nothing once
     * the queue is closing, or if interrupted while waiting: the receive loop then throws.
     */
    @Override
    public Receiver.Woken<T> block(int max, long millis, Receiver.CarriedAck ack) {
        engine.lock.lock();
        try {
            if (engine.runtime.isClosing()) {
                return Receiver.Woken.nothing();
            }
            engine.checkNotDeleted();
            Instant now = engine.now();
            List<Delivery<T>> got = takeReady(max, now);
            if (!got.isEmpty() || engine.contents.paused) {
                return Receiver.Woken.took(got); // paused: the receive waits in its Pausing instead
            }
            try {
                await(TimeUnit.MILLISECONDS.toNanos(millis), now);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // not signalled: a wake-up meant for it went to another
                return Receiver.Woken.nothing();
            }
            if (engine.runtime.isClosing()) {
                return Receiver.Woken.nothing();
            }
            engine.checkNotDeleted();
            return Receiver.Woken.took(takeReady(max, engine.now()));
        } finally {
            engine.lock.unlock();
        }
    }

    /** No wake-up list here: a wait ends by the condition. */
    @Override
    public long pop() {
        return WakeUps.NONE;
    }

    @Override
    public void handOn(long millis) {
        // no wake-up list: takingWaits never leaves one to hand on
    }

    /** One condition wait of up to {@code nanos}, and no later than the next event on the system clock. */
    @SuppressWarnings(
            "WaitNotInLoop") // one wait per block(): woken early, it takes what is ready, and the receive loop calls
    // again
    private void await(long nanos, Instant now) throws InterruptedException {
        long wait = nanos;
        if (engine.manualClock == null) {
            wait = Math.min(wait, nanosUntil(now, engine.nextEvent()));
            // by then this waiter looks again by itself: only something due earlier must wake it
            Instant wakes = wakeTime(now, wait);
            waits.wakeBy = waits.waiters == 0 ? wakes : later(waits.wakeBy, wakes);
        }
        waits.waiters++;
        try {
            engine.changed.awaitNanos(wait);
        } finally {
            waits.waiters--;
        }
    }

    private static long epochMillis(Instant now) {
        try {
            return now.toEpochMilli();
        } catch (ArithmeticException e) {
            return now.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
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
     * Waiters on the system clock timed their waits to end by {@link Contents#wakeBy} at the latest; one
     * earlier than that wakes them to wait again, so none waits past it. Waking them for anything
     * later would be a round of futile wake-ups: every hand-out starts a lease. A manual clock
     * wakes them itself when it advances. Under the lock.
     */
    void eventAt(Instant at) {
        if (engine.manualClock == null && waits.waiters > 0 && (waits.wakeBy == null || at.isBefore(waits.wakeBy))) {
            waits.wakeBy = at;
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

    /**
     * Reaps expired leases, then hands out up to {@code max} ready messages, or none while the queue
     * is paused; under the lock.
     */
    private List<Delivery<T>> takeReady(int max, Instant now) {
        engine.reap(now);
        if (engine.contents.paused) {
            engine.runtime.pausing().learned(true);
            return List.of();
        }
        MsgList ready = engine.ready;
        if (ready.isEmpty()) {
            return List.of();
        }
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

    /**
     * What is left ready wakes one more waiter, who passes it on in turn, as the takers of the
     * JDK's LinkedBlockingQueue do: so a send onto a ready list that was not empty need not wake
     * anyone, and the producer does not pay a wake-up for every message.
     */
    private void passOnWake() {
        if (waits.waiters > 0 && !engine.ready.isEmpty()) {
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
