package io.queuekit.internal;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * A managed consumer's view of a delivery: remembers whether the handler settled it itself, and
 * logs each dead-lettering, whoever asked for it (the handler, or the worker at the last attempt).
 */
final class TrackedDelivery<T> implements Delivery<T> {
    private final Delivery<T> d;
    private final String queue;
    private final Logger log;
    volatile boolean settled;

    TrackedDelivery(Delivery<T> d, String queue, Logger log) {
        this.d = d;
        this.queue = queue;
        this.log = log;
    }

    @Override
    public MessageId id() {
        return d.id();
    }

    @Override
    public T payload() {
        return d.payload();
    }

    @Override
    public int attempt() {
        return d.attempt();
    }

    @Override
    public Headers headers() {
        return d.headers();
    }

    @Override
    public Instant enqueuedAt() {
        return d.enqueuedAt();
    }

    @Override
    public boolean ack() {
        boolean done = d.ack();
        settled = true; // after the call: one refused as bad input leaves the worker to settle
        return done;
    }

    @Override
    public boolean retry(Duration delay) {
        boolean done = d.retry(delay);
        settled = true; // after the call: one refused as bad input leaves the worker to settle
        return done;
    }

    @Override
    public boolean deadLetter(String reason) {
        boolean done = d.deadLetter(reason);
        settled = true; // after the call: one refused as bad input leaves the worker to settle
        if (done) {
            log.warn("queuekit {}: dead-lettered {} on attempt {}: {}", queue, d.id(), d.attempt(), reason);
        }
        return done;
    }

    @Override
    public boolean extendLease(Duration duration) {
        return d.extendLease(duration);
    }

    @Override
    public String toString() {
        return d.toString();
    }
}
