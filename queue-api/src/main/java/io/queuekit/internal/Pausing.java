package io.queuekit.internal;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Rule 11 of {@code docs/wake-up-protocol.md} for one queue object: what the object knows of its
 * queue's stored pause, and where its receives wait while it is paused. The state is the store's
 * ({@link QueueStore#paused()}); this object learns it from its own {@code pause} and
 * {@code resume}, from the replies of its takes (which read it in the same round trip or script),
 * and, while paused, from one re-read per check interval, made by whichever of its waiting receives
 * comes to it first: so a paused object costs one read a second, however many receives wait.
 * Thread-safe.
 *
 * <p>The easy thing to get wrong: a receive that waits here must have left its plan first (handed
 * on what it owed), and starts a new one once resumed; and a receive that asks without waiting
 * re-reads a stale "paused" itself, or a poll-only caller would never see a resume made elsewhere.
 */
public final class Pausing {
    /** How often a paused object reads the stored state again. */
    public static final long CHECK_MILLIS = 1_000;

    private final LongSupplier nanoTime;
    private final long checkNanos;
    private final BooleanSupplier stored;
    private final BooleanSupplier closing;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    // guarded by lock
    private boolean paused;
    /** When {@link #paused} was last learned from the store or set here. */
    private long knownAt;
    /** A receive is reading the stored state now. */
    private boolean reading;

    /**
     * @param nanoTime this process's clock, {@link System#nanoTime} (waits are on the lock's clock)
     * @param checkMillis how often a paused object reads the stored state again
     * @param stored reads the stored state: one round trip on a server
     * @param closing whether the queue is closing: waits end at once
     */
    public Pausing(LongSupplier nanoTime, long checkMillis, BooleanSupplier stored, BooleanSupplier closing) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        if (checkMillis < 1) {
            throw new IllegalArgumentException("check interval must be at least 1 ms: " + checkMillis);
        }
        this.checkNanos = TimeUnit.MILLISECONDS.toNanos(checkMillis);
        this.stored = Objects.requireNonNull(stored, "stored");
        this.closing = Objects.requireNonNull(closing, "closing");
        this.knownAt = nanoTime.getAsLong();
    }

    /** Whether this object believes its queue paused, without asking the store. */
    public boolean known() {
        lock.lock();
        try {
            return paused;
        } finally {
            lock.unlock();
        }
    }

    /**
     * What this object's own call or a take's reply says the stored state is now; a resume wakes
     * every receive waiting here.
     */
    public void learned(boolean pausedNow) {
        lock.lock();
        try {
            knownAt = nanoTime.getAsLong();
            if (paused && !pausedNow) {
                changed.signalAll();
            }
            paused = pausedNow;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For a receive about to claim: whether this object is paused, reading the stored state again
     * if this object's belief that it is paused is a check interval old and no one reads it now.
     */
    public boolean paused() {
        lock.lock();
        try {
            if (paused && !reading && nanoTime.getAsLong() - knownAt >= checkNanos) {
                read();
            }
            return paused;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits while this object is paused, until it is resumed (by its own call, or as one read of the
     * stored state a check interval finds), {@code deadlineNanos} (on {@code nanoTime}) passes, or
     * the queue closes or {@link #stir}s. Returns whether it is still paused.
     *
     * @throws InterruptedException if interrupted while it waits
     */
    public boolean await(long deadlineNanos) throws InterruptedException {
        lock.lock();
        try {
            while (paused && !closing.getAsBoolean()) {
                long now = nanoTime.getAsLong();
                if (!reading && now - knownAt >= checkNanos) {
                    read();
                    continue;
                }
                long left = deadlineNanos - now;
                if (left <= 0) {
                    break;
                }
                // a reader's answer signals; else the next read is due when the last is an interval old
                long wait = reading ? left : Math.min(left, knownAt + checkNanos - now);
                changed.awaitNanos(wait);
            }
            return paused;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every receive waiting here, to look again (the queue closes). */
    public void stir() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Reads the stored state, with the lock released meanwhile; under the lock. */
    private void read() {
        reading = true;
        boolean now = paused;
        lock.unlock();
        try {
            now = stored.getAsBoolean();
        } finally {
            lock.lock();
            reading = false;
            knownAt = nanoTime.getAsLong(); // a failed read too: the next waits an interval
            if (paused && !now) {
                paused = false;
            }
            changed.signalAll();
        }
    }
}
