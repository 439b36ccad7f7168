package io.queuekit.redis.zset;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.SettleOnce;
import io.queuekit.redis.internal.StoredBody;
import java.time.Duration;
import java.time.Instant;

/**
 * A leased delivery; settling runs a script that first checks that this hand-out's fencing token
 * still holds the lease. A delivery settles once: a second settling call returns {@code false}
 * without a round trip, unless the first one failed on the transport.
 */
final class ZsetDelivery<T> implements Delivery<T> {
    private final ZsetStore<T> store;
    private final MessageId id;
    private final int attempt;
    private final ZsetScripts.Lease lease;
    private final byte[] body;
    private final SettleOnce settled = new SettleOnce();
    private T payload;
    private Headers headers;

    ZsetDelivery(ZsetStore<T> store, MessageId id, int attempt, long token, byte[] body) {
        this.store = store;
        this.id = id;
        this.attempt = attempt;
        this.lease = new ZsetScripts.Lease(id, token);
        this.body = body;
    }

    ZsetStore<T> store() {
        return store;
    }

    ZsetScripts.Lease lease() {
        return lease;
    }

    SettleOnce settled() {
        return settled;
    }

    @Override
    public MessageId id() {
        return id;
    }

    @Override
    public synchronized T payload() {
        if (payload == null) {
            payload = store.decode(StoredBody.payload(body));
        }
        return payload;
    }

    /** {@inheritDoc} Read from the body at the first call: a look at its first bytes if it has none. */
    @Override
    public synchronized Headers headers() {
        if (headers == null) {
            headers = StoredBody.headers(body);
        }
        return headers;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return Instant.ofEpochMilli(StoredBody.enqueuedMillis(body));
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
        return settled.settle(() -> store.deadLetter(lease, reason));
    }

    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        return !settled.isSettled() && store.extendLease(lease, duration);
    }

    @Override
    public String toString() {
        return "Delivery[" + store.queue().label() + " " + id + " attempt " + attempt + "]";
    }
}
