package io.queuekit.redis.list;

import io.queuekit.spi.Checks;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An at-least-once delivery. It owns its message while its element (id and attempt) is in flight
 * and its own deadline, the take plus the visibility timeout, has not passed; settling after the
 * deadline returns {@code false} without a round trip and leaves the message to come back.
 */
final class LeasedDelivery<T> extends EnvelopeDelivery<T> {
    private final AtLeastOnce<T> mode;
    private final long deadlineNanos;
    private final AtomicBoolean settled = new AtomicBoolean();

    LeasedDelivery(AtLeastOnce<T> mode, Envelope envelope, long deadlineNanos) {
        super(mode, envelope);
        this.mode = mode;
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public boolean ack() {
        return settle(() -> mode.ack(envelope));
    }

    @Override
    public boolean retry(Duration delay) {
        Checks.retryDelay(delay);
        return settle(() -> mode.retry(envelope.element(), envelope, delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return settle(() -> mode.deadLetter(envelope.element(), envelope, reason));
    }

    private boolean settle(java.util.function.BooleanSupplier call) {
        if (!claimSettlement()) {
            return false;
        }
        try {
            return call.getAsBoolean();
        } catch (RuntimeException e) {
            releaseSettlement();
            throw e;
        }
    }

    /** True for the one caller that may settle this delivery now (before its deadline, not yet settled). */
    boolean claimSettlement() {
        mode.checkOpen();
        return System.nanoTime() - deadlineNanos < 0 && settled.compareAndSet(false, true);
    }

    /** Undoes {@link #claimSettlement()} after the settling call failed. */
    void releaseSettlement() {
        settled.set(false);
    }

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
