package io.queuekit.redis.internal;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.internal.Checks;
import java.time.Duration;
import java.time.Instant;

/**
 * A leased delivery; settling runs a script that first checks that this hand-out's fencing token
 * still holds the lease.
 */
final class RedisDelivery<T> implements Delivery<T> {
    private final QueueEngine<T> engine;
    private final MessageId id;
    private final int attempt;
    private final long token;
    private final byte[] body;
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
        return engine.ack(id, token);
    }

    @Override
    public boolean retry(Duration delay) {
        return engine.retry(id, token, Checks.retryDelay(delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return engine.deadLetter(id, token, reason);
    }

    @Override
    public boolean extendLease(Duration duration) {
        return engine.extendLease(id, token, Checks.leaseDuration(duration));
    }

    @Override
    public String toString() {
        return "Delivery[" + engine.label() + " " + id + " attempt " + attempt + "]";
    }
}
