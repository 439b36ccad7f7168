package io.queuekit.redis.list;

import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.SettleOnce;
import java.time.Duration;

/**
 * An at-most-once delivery: the message left Redis when it was popped. {@code ack} only records
 * that it was settled; {@code retry} and {@code deadLetter} store it again. A settling call that
 * fails on the transport may or may not have stored the message (its reply was lost), so the
 * delivery counts as settled all the same: trying again could store it twice, and at most once
 * means a loss is preferred to a duplicate.
 */
final class OnceDelivery<T> extends EnvelopeDelivery<T> {
    private final AtMostOnce<T> mode;
    private final SettleOnce settled = new SettleOnce();

    OnceDelivery(AtMostOnce<T> mode, Envelope envelope) {
        super(mode, envelope);
        this.mode = mode;
    }

    @Override
    public boolean ack() {
        mode.checkOpen();
        return settled.settleAtMostOnce(mode.observer::acked);
    }

    @Override
    public boolean retry(Duration delay) {
        Delays.retryDelay(delay);
        mode.checkOpen();
        return settled.settleAtMostOnce(() -> mode.retry(ListMode.NONE, envelope, delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        mode.checkOpen();
        return settled.settleAtMostOnce(() -> mode.deadLetter(ListMode.NONE, envelope, reason));
    }

    /** {@inheritDoc} No lease to extend: true while unsettled. */
    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        mode.checkOpen();
        return !settled.isSettled();
    }

    @Override
    public String toString() {
        return "Delivery[" + mode.label() + " " + envelope.id + " attempt " + envelope.attempt + ", at-most-once]";
    }
}
