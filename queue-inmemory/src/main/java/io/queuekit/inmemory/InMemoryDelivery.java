package io.queuekit.inmemory;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.SettleOnce;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;

/**
 * One hand-out of a message. The lease number ties it to the hand-out it came from, so that a
 * settling call from a delivery whose lease expired cannot touch the redelivered message.
 *
 * <p>It also carries what the lease keeper ({@link Leasing.Holds}) notes without the engine's
 * lock: the hold a managed consumer asked for, and whether this delivery settled its message.
 */
final class InMemoryDelivery<T> implements Delivery<T> {
    private static final VarHandle HOLD;

    static {
        try {
            HOLD = MethodHandles.lookup().findVarHandle(InMemoryDelivery.class, "hold", Leasing.Held.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine<T> engine;
    private final Msg msg;
    private final int attempt;
    private final long lease;
    private final SettleOnce settled;
    private volatile T payload;
    private volatile Headers headers;
    private volatile Leasing<T>.Held hold;
    private volatile boolean settledItsMessage;

    /**
     * @param msg the message handed out; its id, body and enqueue time are final
     * @param lease the lease number; 0 for an at-most-once delivery, which has none
     */
    InMemoryDelivery(Engine<T> engine, Msg msg, int attempt, long lease) {
        this.engine = engine;
        this.msg = msg;
        this.attempt = attempt;
        this.lease = lease;
        this.settled = lease == 0 ? new SettleOnce() : null;
    }

    @Override
    public MessageId id() {
        return msg.id;
    }

    @Override
    public T payload() {
        T p = payload;
        if (p == null) {
            p = engine.bodies().load(msg.body);
            payload = p;
        }
        return p;
    }

    /** {@inheritDoc} Kept in the message's body, so every delivery of it, and its dead letter, has them. */
    @Override
    public Headers headers() {
        Headers h = headers;
        if (h == null) {
            h = engine.bodies().headersOf(msg.body);
            headers = h;
        }
        return h;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return msg.enqueuedAt;
    }

    @Override
    public boolean ack() {
        return engine.leasing.ack(this);
    }

    @Override
    public boolean retry(Duration delay) {
        return engine.leasing.retry(this, delay);
    }

    @Override
    public boolean deadLetter(String reason) {
        return engine.leasing.deadLetter(this, reason);
    }

    @Override
    public boolean extendLease(Duration duration) {
        return engine.leasing.extendLease(this, duration);
    }

    Engine<T> engine() {
        return engine;
    }

    Object body() {
        return msg.body;
    }

    Msg msg() {
        return msg;
    }

    long lease() {
        return lease;
    }

    /** For at-most-once deliveries, which have no lease: settled once, by the first caller. */
    SettleOnce settled() {
        return settled;
    }

    /** Notes a managed consumer's hold of this delivery; false, noting nothing, if one was noted before. */
    boolean noteHold(Leasing<T>.Held h) {
        return hold == null && HOLD.compareAndSet(this, null, h);
    }

    /** The hold noted; null if none was. */
    Leasing<T>.Held hold() {
        return hold;
    }

    /** Set under the engine's lock once this delivery acked, retried or dead-lettered its message. */
    void markSettledItsMessage() {
        settledItsMessage = true;
    }

    boolean settledItsMessage() {
        return settledItsMessage;
    }

    @Override
    public String toString() {
        return "Delivery[" + engine.name() + "/" + msg.id + ", attempt " + attempt + "]";
    }
}
