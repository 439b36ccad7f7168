package io.queuekit.inmemory;

import io.queuekit.MessageId;
import java.time.Instant;

/**
 * One message stored by an {@link Engine}, guarded by its lock. Its sort keys (due time, sequence,
 * lease expiry and number) change only while it is out of the sorted sets that order by them.
 */
final class Msg {
    /** {@code EXPIRED}: its lease expired, and no receive has reaped it yet. */
    enum State {
        DELAYED,
        READY,
        IN_FLIGHT,
        EXPIRED,
        DEAD,
        GONE
    }

    final MessageId id;
    final Object body;
    final Instant enqueuedAt;
    State state;
    int attempts;
    long seq;
    Instant dueAt;
    long lease;
    Instant leaseExpiry;
    /** The hand-out that holds the lease (at-least-once, while in flight). */
    InMemoryDelivery<?> delivery;
    /** Its neighbours on the one {@link MsgList} it is on, if any: ready, in flight, or expired. */
    Msg previous;

    Msg next;
    /** In flight: whether {@link Leases} keeps it on its list. */
    boolean listed;
    /** Whether the hold its managed consumer asked for was looked at, and whether it holds. */
    boolean holdSeen;

    boolean held;
    String reason;
    Instant deadAt;

    Msg(MessageId id, Object body, Instant enqueuedAt) {
        this.id = id;
        this.body = body;
        this.enqueuedAt = enqueuedAt;
    }
}
