package io.queuekit.redis.list;

import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.SettleOnce;
import java.time.Duration;

/**
 * An at-least-once delivery. It owns its message while its element (id and attempt) is in flight
 * and its own deadline, the take plus the visibility timeout, has not passed; settling after the
 * deadline returns {@code false} without a round trip and leaves the message to come back. The
 * deadline never passes after the server's lease (which starts later: at the upkeep, in the
 * batch take's script, or on a lease extension at the server's now, plus the millisecond its
 * truncated clock may lag), so a delivery that may settle always holds a live lease,
 * and a stale one can never settle an equal element handed out later (after a dead-letter
 * requeue, the element of a first attempt repeats).
 */
final class LeasedDelivery<T> extends EnvelopeDelivery<T> {
    private final AtLeastOnce<T> mode;
    private volatile long deadlineNanos;
    /** When the take's reply came (a batch take: when it was sent), System.nanoTime. */
    private final long takenNanos;
    /**
     * Whether the server may hold it by id with a lease already: taken in a batch, or a lease
     * extension was asked for (one that failed may still have started a lease).
     */
    private volatile boolean leased;

    private final SettleOnce settled = new SettleOnce();

    LeasedDelivery(AtLeastOnce<T> mode, Envelope envelope, long takenNanos, long deadlineNanos, boolean leased) {
        super(mode, envelope);
        this.mode = mode;
        this.takenNanos = takenNanos;
        this.deadlineNanos = deadlineNanos;
        this.leased = leased;
    }

    @Override
    public boolean ack() {
        return settle(() -> mode.ack(this));
    }

    @Override
    public boolean retry(Duration delay) {
        Delays.retryDelay(delay);
        return settle(() -> mode.retry(envelope.element(), envelope, delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return settle(() -> mode.deadLetter(envelope.element(), envelope, reason));
    }

    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        mode.checkOpen();
        long start = System.nanoTime();
        // before the settled check, which an ack's claim precedes its reading of this: so either
        // this sees the ack, or the ack sees this and runs the script, which ends any lease this
        // starts; and before the call, since a call that failed may have started a lease
        leased = true;
        if (settled.isSettled() || start - deadlineNanos >= 0) {
            return false;
        }
        if (!mode.extendLease(envelope.element(), envelope, duration)) {
            return false;
        }
        // the server's lease ends at its now plus the duration, no earlier than this
        deadlineNanos = start + duration.toNanos();
        return true;
    }

    private boolean settle(java.util.function.BooleanSupplier call) {
        mode.checkOpen();
        if (System.nanoTime() - deadlineNanos >= 0) {
            return false;
        }
        return settled.settle(call);
    }

    /** True for the one caller that may settle this delivery now (before its deadline, not yet settled). */
    boolean claimSettlement() {
        mode.checkOpen();
        return System.nanoTime() - deadlineNanos < 0 && settled.claim();
    }

    /** Undoes {@link #claimSettlement()} after the settling call failed. */
    void releaseSettlement() {
        settled.release();
    }

    /** Whether taken in a batch or a lease extension was asked for (see {@link AtLeastOnce#ack(LeasedDelivery)}). */
    boolean leased() {
        return leased;
    }

    long takenNanos() {
        return takenNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    AtLeastOnce<T> mode() {
        return mode;
    }

    Envelope envelope() {
        return envelope;
    }

    @Override
    public String toString() {
        return "Delivery[" + mode.label() + " " + envelope.id + " attempt " + envelope.attempt + "]";
    }
}
