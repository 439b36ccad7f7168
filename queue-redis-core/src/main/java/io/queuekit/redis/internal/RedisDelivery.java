package io.queuekit.redis.internal;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.internal.Checks;
import io.queuekit.internal.SettleOnce;
import io.queuekit.internal.Delays;
import java.time.Duration;
import java.time.Instant;

/**
 * A leased delivery; settling runs a script that first checks that this hand-out's fencing token
 * still holds the lease. A delivery settles once: a second settling call returns {@code false}
 * without a round trip, unless the first one failed on the transport.
 */
final class RedisDelivery<T> implements Delivery<T> {
    private final QueueEngine<T> engine;
    private final MessageId id;
    private final int attempt;
    private final long token;
    private final byte[] body;
    private final SettleOnce settled = new SettleOnce();
    private T payload;

    RedisDelivery(QueueEngine<T> engine, MessageId id, int attempt, long token, byte[] body) {
        this.engine = engine;
        this.id = id;
        this.attempt = attempt;
        this.token = token;
        this.body = body;
    }

    QueueEngine<T> engine() {
        return engine;
    }

    long token() {
        return token;
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
            payload = engine.decode(QueueEngine.payloadOf(body));
        }
        return payload;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return QueueEngine.instant(QueueEngine.enqueuedMillis(body));
    }

    @Override
    public boolean ack() {
        return settled.settle(() -> engine.ack(id, token));
    }

    @Override
    public boolean retry(Duration delay) {
        Delays.retryDelay(delay);
        return settled.settle(() -> engine.retry(id, token, delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return settled.settle(() -> engine.deadLetter(id, token, reason));
    }

    @Override
    public boolean extendLease(Duration duration) {
        Checks.leaseDuration(duration);
        return !settled.isSettled() && engine.extendLease(id, token, duration);
    }

    @Override
    public String toString() {
        return "Delivery[" + engine.label() + " " + id + " attempt " + attempt + "]";
    }
}
