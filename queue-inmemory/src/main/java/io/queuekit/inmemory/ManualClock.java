package io.queuekit.inmemory;

import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that stands still until {@link #advance(Duration) advanced}, for tests of code
 * that uses the in-memory queues. Give it to a builder's {@code clock(...)}: leases, retry delays
 * and due times are then measured on it, so a test moves time forward instead of sleeping.
 *
 * <p>In-memory queues built with a manual clock are told when it advances: a caller blocked in
 * {@code take()} or {@code poll(timeout)} wakes as soon as an advance makes a delayed message due
 * or lets a lease expire. The {@code poll} timeout itself is still measured in real time, so a
 * test that never advances the clock cannot hang in {@code poll}.
 *
 * <p>Thread-safe. Time never goes backwards. {@link #withZone(ZoneId)} returns a clock sharing
 * this one's time.
 */
public final class ManualClock extends Clock {
    /** Where a clock made with {@link #ManualClock()} starts. */
    public static final Instant DEFAULT_START = Instant.parse("2030-01-01T00:00:00Z");

    private final Shared shared;
    private final ZoneId zone;

    /** A clock at {@link #DEFAULT_START}, in UTC. */
    public ManualClock() {
        this(DEFAULT_START);
    }

    /** A clock at {@code start}, in UTC. */
    public ManualClock(Instant start) {
        this(new Shared(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
    }

    private ManualClock(Shared shared, ZoneId zone) {
        this.shared = shared;
        this.zone = zone;
    }

    /**
     * Moves time forward and wakes in-memory queues waiting on this clock.
     *
     * @throws NullPointerException if {@code amount} is null
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    @SuppressWarnings(
            "ModifyCollectionInEnhancedForLoop") // listeners is copy-on-write: removing while iterating is safe
    public void advance(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        if (amount.isNegative()) {
            throw new IllegalArgumentException("a manual clock cannot go back: " + amount);
        }
        shared.now.updateAndGet(t -> t.plus(amount));
        for (WeakReference<Runnable> ref : shared.listeners) {
            Runnable listener = ref.get();
            if (listener == null) {
                shared.listeners.remove(ref);
            } else {
                listener.run();
            }
        }
    }

    @Override
    public Instant instant() {
        return shared.now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public ManualClock withZone(ZoneId zone) {
        return new ManualClock(shared, Objects.requireNonNull(zone, "zone"));
    }

    /**
     * Called after every advance, on the advancing thread; must not block. Held weakly, so that
     * a queue nobody closed can still be collected: its owner must hold the listener.
     */
    void addListener(Runnable listener) {
        shared.listeners.removeIf(ref -> ref.get() == null);
        shared.listeners.add(new WeakReference<>(listener));
    }

    void removeListener(Runnable listener) {
        shared.listeners.removeIf(ref -> ref.get() == null || ref.get() == listener);
    }

    @Override
    public String toString() {
        return "ManualClock[" + instant() + "," + zone + "]";
    }

    private static final class Shared {
        final AtomicReference<Instant> now;
        final List<WeakReference<Runnable>> listeners = new CopyOnWriteArrayList<>();

        Shared(Instant start) {
            this.now = new AtomicReference<>(start);
        }
    }
}
