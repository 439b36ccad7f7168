package io.queuekit.inmemory;

import io.queuekit.Delivery;
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
 * <p>It also carries what the engine's lease keeper notes without the engine's lock: the hold a
 * managed consumer asked for, and whether this delivery settled its message.
 */
final class InMemoryDelivery<T> implements Delivery<T> {
    private static final VarHandle HOLD_ASKED;

    static {
        try {
            HOLD_ASKED = MethodHandles.lookup().findVarHandle(InMemoryDelivery.class, "holdAsked", HoldAsked.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine<T> engine;
    private final Engine.Msg msg;
    private final MessageId id;
    private final Object body;
    private final int attempt;
    private final Instant enqueuedAt;
    private final long lease;
    private final SettleOnce settled;
    private volatile T payload;
    private volatile HoldAsked holdAsked;
    private volatile boolean settledItsMessage;

    /**
     * @param msg the message leased (at-least-once); null for an at-most-once delivery
     * @param lease the lease number, 0 for an at-most-once delivery
     */
    InMemoryDelivery(Engine<T> engine, Engine.Msg msg, MessageId id, Object body, int attempt, Instant enqueuedAt,
            long lease) {
        this.engine = engine;
        this.msg = msg;
        this.id = id;
        this.body = body;
        this.attempt = attempt;
        this.enqueuedAt = enqueuedAt;
        this.lease = lease;
        this.settled = msg == null ? new SettleOnce() : null;
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

    Engine.Msg msg() {
        return msg;
    }

    long lease() {
        return lease;
    }

    /** For at-most-once deliveries, which have no lease: settled once, by the first caller. */
    SettleOnce settled() {
        return settled;
    }

    /** A managed consumer's hold of this delivery's lease: by whom, since when, for how long at most. */
    record HoldAsked(Object holder, Instant at, Duration limit) {}

    /**
     * Notes that {@code holder} holds this delivery's lease for at most {@code limit} from
     * {@code at}; false, noting nothing, if a hold was noted before.
     */
    boolean askHold(Object holder, Instant at, Duration limit) {
        return holdAsked == null && HOLD_ASKED.compareAndSet(this, null, new HoldAsked(holder, at, limit));
    }

    /** The hold asked for; null if none was. */
    HoldAsked holdAsked() {
        return holdAsked;
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
        return "Delivery[" + engine.name() + "/" + id + ", attempt " + attempt + "]";
    }
}
