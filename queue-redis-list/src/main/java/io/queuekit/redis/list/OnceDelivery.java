package io.queuekit.redis.list;

import io.queuekit.internal.Checks;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An at-most-once delivery: the message left Redis when it was popped. {@code ack} only records
 * that it was settled; {@code retry} and {@code deadLetter} store it again. A settling call that
 * fails on the transport may or may not have stored the message (its reply was lost), so the
 * delivery counts as settled all the same: trying again could store it twice, and at most once
 * means a loss is preferred to a duplicate.
 */
final class OnceDelivery<T> extends EnvelopeDelivery<T> {
    private final AtMostOnce<T> mode;
    private final AtomicBoolean settled = new AtomicBoolean();

    OnceDelivery(AtMostOnce<T> mode, Envelope envelope) {
        super(mode, envelope);
        this.mode = mode;
    }

    @Override
    public boolean ack() {
        mode.checkOpen();
        boolean first = settled.compareAndSet(false, true);
        if (first) {
            mode.observer.acked();
        }
        return first;
    }

    @Override
    public boolean retry(Duration delay) {
        Checks.retryDelay(delay);
        mode.checkOpen();
        if (!settled.compareAndSet(false, true)) {
            return false;
        }
        mode.retry(ListMode.NONE, envelope, delay);
        return true;
    }

    @Override
    public boolean deadLetter(String reason) {
        mode.checkOpen();
        if (!settled.compareAndSet(false, true)) {
            return false;
        }
        mode.deadLetter(ListMode.NONE, envelope, reason);
        return true;
    }

    /** {@inheritDoc} No lease to extend: true while unsettled. */
    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        mode.checkOpen();
        return !settled.get();
    }

    @Override
    public String toString() {
        return "Delivery[" + mode.label() + " " + envelope.id + " attempt " + envelope.attempt + ", at-most-once]";
    }
}
