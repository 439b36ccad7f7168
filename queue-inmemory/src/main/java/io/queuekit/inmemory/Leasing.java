package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.LeaseKeeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The leases of an {@link Engine}'s messages in flight, under its lock: what a delivery does to
 * its message (ack, retry, dead-letter, extend), and the lease keeper of managed consumers,
 * {@link Holds}. A delivery owns its message while the message is in flight under the delivery's
 * lease number; numbers are never reused, so a delivery whose lease expired owns nothing.
 */
final class Leasing<T> {
    private final Engine<T> engine;

    Leasing(Engine<T> engine) {
        this.engine = engine;
    }

    /** A lease number no hand-out had; under the lock. */
    long nextLease() {
        return ++engine.contents.leaseSequence;
    }

    boolean ack(InMemoryDelivery<T> d) {
        engine.lock.lock();
        try {
            engine.checkOpen();
            if (!engine.leases) {
                return d.settled().settleAtMostOnce(engine.observer::acked);
            }
            Msg m = owned(d, engine.now());
            if (m == null) {
                return false;
            }
            engine.leased.remove(m);
            engine.stored.remove(m.id);
            m.state = Msg.State.GONE;
            settledBy(m, d);
            engine.observer.acked();
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    boolean retry(InMemoryDelivery<T> d, Duration delay) {
        Delays.retryDelay(delay);
        return settleThen(d, (m, now) -> {
            engine.enqueue(m, now.plus(delay), now);
            engine.observer.retried();
            engine.changed.signalAll();
        });
    }

    boolean deadLetter(InMemoryDelivery<T> d, String reason) {
        return settleThen(d, (m, now) -> {
            engine.graveyard.bury(m, reason == null ? "" : reason, now);
            engine.observer.deadLettered();
        });
    }

    /** Takes {@code d}'s message back under the lock and hands it to {@code then}; false if not owned. */
    private boolean settleThen(InMemoryDelivery<T> d, BiConsumer<Msg, Instant> then) {
        engine.lock.lock();
        try {
            engine.checkOpen();
            Instant now = engine.now();
            Msg m = settle(d, now);
            if (m == null) {
                return false;
            }
            then.accept(m, now);
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    boolean extendLease(InMemoryDelivery<T> d, Duration duration) {
        Checks.leaseDuration(duration);
        engine.lock.lock();
        try {
            engine.checkOpen();
            if (!engine.leases) {
                return !d.settled().isSettled();
            }
            Instant now = engine.now();
            Msg m = owned(d, now);
            if (m == null) {
                return false;
            }
            seeHold(m); // asked for before this call, so it counts first
            setLease(m, now.plus(duration));
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    /**
     * Takes the message back from the consumer for a retry or a dead letter: out of the lease set
     * (at-least-once), or stored again from the delivery's copy (at-most-once, best-effort).
     * Null if this delivery no longer owns it.
     */
    private Msg settle(InMemoryDelivery<T> d, Instant now) {
        if (engine.leases) {
            Msg m = owned(d, now);
            if (m != null) {
                engine.leased.remove(m);
                settledBy(m, d);
            }
            return m;
        }
        if (!d.settled().claim()) {
            return null;
        }
        Msg m = new Msg(d.id(), d.body(), d.enqueuedAt());
        m.attempts = d.attempt();
        engine.stored.put(m.id, m);
        return m;
    }

    /** {@code d} settled {@code m}, taken out of the lease set: it owns nothing from now on. */
    private static void settledBy(Msg m, InMemoryDelivery<?> d) {
        m.delivery = null;
        d.markSettledItsMessage();
    }

    /** The message {@code d} leases, as of {@code now}; null if its lease expired or it was settled. */
    private Msg owned(InMemoryDelivery<?> d, Instant now) {
        engine.promote(now);
        Msg m = d.msg();
        return m != null && m.state == Msg.State.IN_FLIGHT && m.lease == d.lease() ? m : null;
    }

    /**
     * Applies, once, the hold noted on {@code m}'s delivery, as of when it was asked for: if the
     * lease still ran then, it lasts at least until then plus the limit and a visibility timeout.
     * {@code m} is in flight.
     */
    void seeHold(Msg m) {
        if (m.holdSeen) {
            return;
        }
        Leasing<?>.Held h = m.delivery.hold();
        if (h == null) {
            return;
        }
        m.holdSeen = true;
        if (h.at.isBefore(m.leaseExpiry)) {
            applyHold(m, h.at.plus(h.limit).plus(engine.visibilityTimeout));
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
        engine.leased.remove(m);
        m.leaseExpiry = expiry;
        engine.leased.add(m);
        engine.waiting.eventAt(expiry);
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
    final class Holds implements LeaseKeeper {
        /** Deliveries held a second time, under the lock (not what consumers do); held till released. */
        private final Set<InMemoryDelivery<?>> heldAgain = ConcurrentHashMap.newKeySet();

        private volatile boolean closed;

        @Override
        public void close() {
            closed = true;
            List<InMemoryDelivery<?>> mine = new ArrayList<>(heldAgain);
            engine.lock.lock();
            try {
                engine.leased.forEach(m -> {
                    Leasing<?>.Held h = m.delivery == null ? null : m.delivery.hold();
                    if (h != null && h.keeper == this) {
                        mine.add(m.delivery);
                    }
                });
            } finally {
                engine.lock.unlock();
            }
            for (InMemoryDelivery<?> d : mine) {
                release(d);
            }
        }

        @Override
        public Hold hold(Delivery<?> delivery, Duration limit) {
            if (!(delivery instanceof InMemoryDelivery<?> any)
                    || any.engine() != engine
                    || limit.isZero()
                    || engine.runtime.isClosed()) {
                return () -> {};
            }
            @SuppressWarnings("unchecked") // its engine is this one
            InMemoryDelivery<T> d = (InMemoryDelivery<T>) any;
            Held h = new Held(this, d, engine.now(), limit);
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
            engine.lock.lock();
            try {
                Instant now = engine.now();
                Msg m = owned(d, now);
                if (m == null) {
                    return;
                }
                seeHold(m);
                applyHold(m, now.plus(limit).plus(engine.visibilityTimeout));
                heldAgain.add(d);
            } finally {
                engine.lock.unlock();
            }
        }

        private void release(InMemoryDelivery<?> d) {
            if (!heldAgain.isEmpty()) {
                heldAgain.remove(d);
            }
            if (d.settledItsMessage()) {
                return; // it owns nothing any more, so it has no lease to leave
            }
            engine.lock.lock();
            try {
                Instant now = engine.now();
                Msg m = owned(d, now);
                if (m == null) {
                    return;
                }
                seeHold(m);
                if (!m.held) {
                    return;
                }
                m.held = false;
                Instant renewed = now.plus(engine.visibilityTimeout);
                if (renewed.isBefore(m.leaseExpiry)) {
                    setLease(m, renewed);
                }
            } finally {
                engine.lock.unlock();
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
}
