package io.queuekit.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The guard that lets one {@link io.queuekit.Delivery} settle once ({@code ack}, {@code retry} or
 * {@code deadLetter}): the first caller wins, every later call returns {@code false} without
 * touching the transport. Thread-safe; one per delivery.
 *
 * <p>What a settling call that throws leaves behind depends on the guarantee:
 * <ul>
 *   <li>{@link #settle}, for leased (at-least-once) deliveries: the claim is released, so the
 *       delivery may try again; the transport's fencing decides whether that still owns the
 *       message.
 *   <li>{@link #settleAtMostOnce}, for at-most-once deliveries: the delivery stays settled, since
 *       the failed call may have stored the message and a second one could store it twice.
 * </ul>
 */
public final class SettleOnce {
    private final AtomicBoolean settled = new AtomicBoolean();

    /** True for the first caller only; that caller owns the settling. */
    public boolean claim() {
        return settled.compareAndSet(false, true);
    }

    /** Undoes a {@link #claim()} whose settling call failed and may be tried again. */
    public void release() {
        settled.set(false);
    }

    /** Whether some call claimed the settling (and did not release it). */
    public boolean isSettled() {
        return settled.get();
    }

    /**
     * Runs {@code call} if this is the first settling, returning its answer; {@code false} if the
     * delivery was already settled. If {@code call} throws, the claim is released.
     */
    public boolean settle(BooleanSupplier call) {
        if (!claim()) {
            return false;
        }
        try {
            return call.getAsBoolean(); // false: the lease had expired, and stays so
        } catch (RuntimeException | Error e) {
            release();
            throw e;
        }
    }

    /**
     * Runs {@code call} if this is the first settling and returns {@code true}; {@code false} if
     * the delivery was already settled. If {@code call} throws, the delivery stays settled.
     */
    public boolean settleAtMostOnce(Runnable call) {
        if (!claim()) {
            return false;
        }
        call.run();
        return true;
    }
}
