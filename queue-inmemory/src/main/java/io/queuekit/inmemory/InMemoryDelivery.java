package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.internal.SettleOnce;
import java.time.Duration;
import java.time.Instant;

/**
 * One hand-out of a message. The lease number ties it to the hand-out it came from, so that a
 * settling call from a delivery whose lease expired cannot touch the redelivered message.
 */
final class InMemoryDelivery<T> implements Delivery<T> {
    private final Engine<T> engine;
    private final MessageId id;
    private final Object body;
    private final int attempt;
    private final Instant enqueuedAt;
    private final long lease;
    private final SettleOnce settled = new SettleOnce();
    private volatile T payload;

    InMemoryDelivery(Engine<T> engine, MessageId id, Object body, int attempt, Instant enqueuedAt, long lease) {
        this.engine = engine;
        this.id = id;
        this.body = body;
        this.attempt = attempt;
        this.enqueuedAt = enqueuedAt;
        this.lease = lease;
    }

    @Override
    public MessageId id() {
        return id;
    }

    @Override
    public T payload() {
        T p = payload;
        if (p == null) {
            p = engine.bodies().load(body);
            payload = p;
        }
        return p;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return enqueuedAt;
    }

    @Override
    public boolean ack() {
        return engine.ack(this);
    }

    @Override
    public boolean retry(Duration delay) {
        return engine.retry(this, delay);
    }

    @Override
    public boolean deadLetter(String reason) {
        return engine.deadLetter(this, reason);
    }

    @Override
    public boolean extendLease(Duration duration) {
        return engine.extendLease(this, duration);
    }

    Engine<T> engine() {
        return engine;
    }

    Object body() {
        return body;
    }

    long lease() {
        return lease;
    }

    /** For at-most-once deliveries, which have no lease: settled once, by the first caller. */
    SettleOnce settled() {
        return settled;
    }

    @Override
    public String toString() {
        return "Delivery[" + engine.name() + "/" + id + ", attempt " + attempt + "]";
    }
}
