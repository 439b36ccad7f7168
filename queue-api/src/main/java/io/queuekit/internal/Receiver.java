package io.queuekit.internal;

import io.queuekit.Delivery;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive loop of every queue: claim, wait, claim again, until something is claimed or the
 * caller's time is up, then hand on what the receive still owes. What to do next is a {@link Plan}'s
 * to say (the wake-up protocol, {@link WakeUps}, or {@link #takingWaits}); how to claim and wait is
 * the {@link Store}'s. {@code poll}, {@code take} and {@code pollBatch} of every transport, and the
 * fetches of managed consumers, run here. While the queue object is paused, a receive waits in its
 * {@link Pausing} instead, outside any plan (rule 11). Thread-safe.
 *
 * @param <T> the payload type
 * @param <A> the ack a fetch may carry ({@link CarriedAck})
 */
public final class Receiver<T, A extends Receiver.CarriedAck> {
    private static final Logger LOG = LoggerFactory.getLogger(Receiver.class);
    /** How long an ack may wait for a claim of its receive to travel with, before a wait here. */
    private static final long ACK_HOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** What a receive does next; see {@link Step}. */
    public enum Kind {
        /** Claim up to the batch without waiting; then {@link Plan#claimed}. */
        CLAIM,
        /** Wait on the store for {@link Step#millis()}; then {@link Plan#woke}. */
        BLOCK,
        /** Wait up to {@link Step#millis()} in this process ({@link Plan#await}); then ask again. */
        SLEEP,
        /** Read a wake-up without waiting; then {@link Plan#woke}. */
        POP,
        /** The caller's time is up: return nothing. */
        RETURN
    }

    /**
     * One step of a receive; {@code millis} for {@link Kind#BLOCK} and {@link Kind#SLEEP}. A
     * {@link Kind#CLAIM} that is {@code watched} has another receive of its queue object waiting to
     * take on the next event it finds, so the claim need not wake a consumer for it.
     */
    public record Step(Kind kind, long millis, boolean watched) {
        static final Step CLAIM = new Step(Kind.CLAIM, 0);
        static final Step CLAIM_WATCHED = new Step(Kind.CLAIM, 0, true);
        static final Step POP = new Step(Kind.POP, 0);
        static final Step RETURN = new Step(Kind.RETURN, 0);

        public Step(Kind kind, long millis) {
            this(kind, millis, false);
        }
    }

    /** One receive's decisions, used by its thread only. */
    public interface Plan {
        Step next();

        /**
         * What a claim found: the server's time when it ran, when something next becomes claimable
         * ({@link WakeUps#NONE} if nothing, or the store does not say), and whether it took anything.
         */
        void claimed(long serverMillis, long nextEventMillis, boolean took);

        /** What a wait or a read of the wake-up list brought: the time a wake-up names, or NONE. */
        void woke(long signalMillis);

        /** A {@link Kind#BLOCK} took something, and the receive returns it. */
        default void took() {}

        /** Ends the receive: a time to hand on to the store's wake-up list, or NONE. Idempotent. */
        long leave();

        /**
         * Waits a {@link Kind#SLEEP} of {@code millis}, or less if the plan's circumstances change.
         *
         * @throws InterruptedException if interrupted while it waits
         */
        default void await(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    }

    /**
     * Begins the plan of one receive of up to {@code max} that waits up to {@code timeoutNanos}
     * (more than zero).
     */
    @FunctionalInterface
    public interface Plans {
        Plan begin(int max, long timeoutNanos);

        /**
         * {@link #begin(int, long)} for a receive whose first claim or block carries an ack
         * ({@code carrying}, see {@link CarriedAck#carrying()}).
         */
        default Plan begin(int max, long timeoutNanos, boolean carrying) {
            return begin(max, timeoutNanos);
        }
    }

    /**
     * The plan of a store whose waits take messages themselves (a list's {@code BLMOVE}, the
     * in-memory queue's condition wait) and that has no wake-up list: a claim first if
     * {@code claimFirst} says so for the batch asked for, then waits of at most
     * {@code blockMillis} until the caller's deadline.
     */
    public static Plans takingWaits(LongSupplier nanoTime, long blockMillis, IntPredicate claimFirst) {
        return takingWaits(nanoTime, blockMillis, claimFirst, false);
    }

    /**
     * {@link #takingWaits(LongSupplier, long, IntPredicate)}, with a claim before every wait after
     * the first if {@code claimBetween}: for a store whose waits cover part of it only (one shard).
     */
    public static Plans takingWaits(
            LongSupplier nanoTime, long blockMillis, IntPredicate claimFirst, boolean claimBetween) {
        Objects.requireNonNull(nanoTime, "nanoTime");
        Objects.requireNonNull(claimFirst, "claimFirst");
        return (max, timeoutNanos) -> new Plan() {
            private final long deadline = nanoTime.getAsLong() + timeoutNanos;
            private boolean entered;
            private boolean waited;

            @Override
            public Step next() {
                if (!entered) {
                    entered = true;
                    if (claimFirst.test(max)) {
                        return Step.CLAIM;
                    }
                } else if (waited && claimBetween) {
                    waited = false;
                    return Step.CLAIM;
                }
                long left = deadline - nanoTime.getAsLong();
                if (left <= 0) {
                    return Step.RETURN;
                }
                waited = true;
                return new Step(Kind.BLOCK, Math.min(blockMillis, left / 1_000_000 + (left % 1_000_000 == 0 ? 0 : 1)));
            }

            @Override
            public void claimed(long serverMillis, long nextEventMillis, boolean took) {}

            @Override
            public void woke(long signalMillis) {}

            @Override
            public long leave() {
                return WakeUps.NONE;
            }
        };
    }

    /** The ack of a delivery its consumer finished, travelling with the next fetch, or made alone. */
    public interface CarriedAck {
        /** Makes the ack alone if no fetch has taken it yet; idempotent. */
        void ackAlone();

        /** Whether there is an ack to make that no fetch has taken yet. */
        default boolean carrying() {
            return false;
        }
    }

    /** What a claim got, and what it found on the server. */
    public record Claimed<T>(List<Delivery<T>> deliveries, long serverMillis, long nextEventMillis) {}

    /** What a wait got: deliveries (a store whose waits take them), or a wake-up's time, or NONE. */
    public record Woken<T>(List<Delivery<T>> deliveries, long signalMillis) {
        private static final Woken<?> NOTHING = new Woken<>(List.of(), WakeUps.NONE);

        @SuppressWarnings("unchecked")
        public static <T> Woken<T> nothing() {
            return (Woken<T>) NOTHING;
        }

        public static <T> Woken<T> signal(long signalMillis) {
            return new Woken<>(List.of(), signalMillis);
        }

        public static <T> Woken<T> took(List<Delivery<T>> deliveries) {
            return new Woken<>(deliveries, WakeUps.NONE);
        }
    }

    /** How one store claims and waits. */
    public interface Store<T, A> {
        /** Claims up to {@code max} without waiting, making {@code ack} first (or alone, before). */
        Claimed<T> claim(int max, A ack);

        /**
         * {@link #claim(int, Object)}; if {@code watched}, a claim that takes something need not wake
         * a consumer for a next event still to come: a receive of this queue object takes it on.
         */
        default Claimed<T> claim(int max, A ack, boolean watched) {
            return claim(max, ack);
        }

        /**
         * Waits up to {@code millis} (at least the store's shortest block) for a wake-up or, where its
         * waits take messages, for up to {@code max} of them; {@code ack} goes with the wait or is
         * made alone first.
         *
         * @throws InterruptedException if interrupted while it waits in this process
         */
        Woken<T> block(int max, long millis, A ack) throws InterruptedException;

        /** Takes a wake-up off the list without waiting; NONE if none (or the store has no list). */
        long pop();

        /** Pushes a wake-up for {@code millis} back to the list, for another consumer. */
        void handOn(long millis);
    }

    private final QueueRuntime<T> runtime;
    private final Store<T, A> store;
    private final Plans plans;
    private final RateLimitedLog handOnFailures = new RateLimitedLog(LOG, Duration.ofSeconds(10));

    public Receiver(QueueRuntime<T> runtime, Store<T, A> store, Plans plans) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.store = Objects.requireNonNull(store, "store");
        this.plans = Objects.requireNonNull(plans, "plans");
    }

    /**
     * Up to {@code max} deliveries, waiting up to {@code timeoutNanos} (zero: one claim, no wait,
     * and no interrupt is checked) for the first; empty if none came. {@code ack} (may be a no-op)
     * is made with the first claim or block, alone before a wait in this process once the receive
     * has waited a second, or alone before the return whatever happens.
     *
     * @throws InterruptedException if interrupted on entry or between steps
     * @throws io.queuekit.QueueClosedException once the queue is closing
     */
    public List<Delivery<T>> receive(int max, long timeoutNanos, A ack) throws InterruptedException {
        try {
            if (timeoutNanos == 0) {
                runtime.checkReceiving();
                if (runtime.pausing().paused()) {
                    return List.of();
                }
                return store.claim(max, ack).deliveries();
            }
            return await(max, timeoutNanos, ack);
        } finally {
            ack.ackAlone();
        }
    }

    /**
     * Plans until something is taken or the deadline; while the object is paused (rule 11), waits in
     * its {@link Pausing} outside any plan, and begins a new plan once resumed.
     */
    private List<Delivery<T>> await(int max, long timeoutNanos, A ack) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        runtime.checkReceiving();
        long began = System.nanoTime();
        long deadline = began + timeoutNanos;
        Pausing pausing = runtime.pausing();
        long left = timeoutNanos; // the first plan gets the whole timeout: it looks once, however short
        while (true) {
            if (pausing.paused()) {
                ack.ackAlone(); // no claim comes to carry it before the resume
                boolean still = pausing.await(deadline);
                runtime.checkReceiving();
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (still) {
                    return List.of();
                }
                left = Math.max(1, deadline - System.nanoTime()); // resumed: a plan that looks once at least
            }
            List<Delivery<T>> got = planned(max, left, ack, began, pausing);
            if (got != null) {
                return got;
            }
            left = deadline - System.nanoTime(); // a later plan, after the pause, only if time is left
            if (left <= 0) {
                return List.of();
            }
        }
    }

    /**
     * One plan's receive: what it got, empty at the deadline, or null once it learnt that the
     * object is paused (it left its plan, handing on what it owed).
     */
    private List<Delivery<T>> planned(int max, long timeoutNanos, A ack, long began, Pausing pausing)
            throws InterruptedException {
        Plan plan = plans.begin(max, timeoutNanos, ack.carrying());
        try {
            while (true) {
                Step s = plan.next();
                switch (s.kind()) {
                    case CLAIM -> {
                        Claimed<T> c = store.claim(max, ack, s.watched());
                        plan.claimed(
                                c.serverMillis(),
                                c.nextEventMillis(),
                                !c.deliveries().isEmpty());
                        if (!c.deliveries().isEmpty()) {
                            return c.deliveries();
                        }
                    }
                    case BLOCK -> {
                        Woken<T> w = store.block(max, s.millis(), ack);
                        if (!w.deliveries().isEmpty()) {
                            plan.took();
                            return w.deliveries();
                        }
                        plan.woke(w.signalMillis());
                        runtime.checkReceiving();
                    }
                    case SLEEP -> {
                        // the ack waits for a claim to travel with for a second at most, then goes alone
                        long held = System.nanoTime() - began;
                        long millis = s.millis();
                        if (held >= ACK_HOLD_NANOS) {
                            ack.ackAlone();
                        } else {
                            millis = Math.min(millis, TimeUnit.NANOSECONDS.toMillis(ACK_HOLD_NANOS - held) + 1);
                        }
                        plan.await(millis);
                        runtime.checkReceiving();
                    }
                    case POP -> plan.woke(store.pop());
                    case RETURN -> {
                        return List.of();
                    }
                }
                if (pausing.known()) {
                    return null; // a claim or block found the queue paused: wait outside the plan
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            long handOn = plan.leave();
            if (handOn != WakeUps.NONE) {
                try {
                    store.handOn(handOn);
                    handOnFailures.recovered("queuekit {}: handing on wake-ups works again", runtime.label());
                } catch (RuntimeException e) {
                    // the wake-up is lost: another consumer finds its time by the horizon claim
                    handOnFailures.failed(
                            "queuekit " + runtime.label() + ": could not hand on a wake-up; another "
                                    + "consumer claims it within the horizon",
                            e);
                }
            }
        }
    }
}
