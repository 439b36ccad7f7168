package io.queuekit.redis.stream;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.SettleOnce;
import io.queuekit.redis.internal.StoredBody;
import java.time.Duration;
import java.time.Instant;

/**
 * A delivery of one group's stream entry; settling runs a script that first checks that this
 * hand-out (this object's consumer, the entry's delivery count at the claim) still holds the entry.
 * A delivery settles once: a second settling call returns {@code false} without a round trip,
 * unless the first one failed on the transport.
 */
final class StreamDelivery<T> implements Delivery<T> {
    private final GroupStore<T> store;
    private final MessageId id;
    /** The id as Redis keeps it: {@link #id} without a shard's suffix. */
    private final MessageId storedId;

    private final int attempt;
    private final StreamScripts.Lease lease;
    private final byte[] section;
    private final long enqueuedMillis;
    private final SettleOnce settled = new SettleOnce();
    private T payload;
    private Headers headers;

    StreamDelivery(GroupStore<T> store, StreamScripts.Claim.Claimed c) {
        this.store = store;
        this.id = store.ids().out(c.id());
        this.storedId = c.id();
        this.attempt = c.attempt();
        this.lease = new StreamScripts.Lease(c.streamId(), c.attempt());
        this.section = c.section();
        this.enqueuedMillis = c.enqueuedMillis();
    }

    GroupStore<T> store() {
        return store;
    }

    MessageId storedId() {
        return storedId;
    }

    StreamScripts.Lease lease() {
        return lease;
    }

    SettleOnce settled() {
        return settled;
    }

    /** The body as dead letters keep it: {@code "<enqueued ms>:<payload section>"}. */
    byte[] storedBody() {
        return StoredBody.of(enqueuedMillis, section, 0);
    }

    @Override
    public MessageId id() {
        return id;
    }

    @Override
    public synchronized T payload() {
        if (payload == null) {
            payload = store.decode(section);
        }
        return payload;
    }

    @Override
    public synchronized Headers headers() {
        if (headers == null) {
            headers = Payloads.headers(section);
        }
        return headers;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return Instant.ofEpochMilli(enqueuedMillis);
    }

    @Override
    public boolean ack() {
        return settled.settle(() -> store.ack(lease));
    }

    @Override
    public boolean retry(Duration delay) {
        Delays.retryDelay(delay);
        return settled.settle(() -> store.retry(lease, delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return settled.settle(() -> store.deadLetter(this, reason));
    }

    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        return !settled.isSettled() && store.extendLease(lease, duration);
    }

    @Override
    public String toString() {
        return "Delivery[" + store.label() + " " + id + " attempt " + attempt + "]";
    }
}
