package io.queuekit.redis;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.spi.Checks;
import java.time.Duration;
import java.time.Instant;

/** A leased delivery; settling runs a script that first checks this attempt still owns the lease. */
final class RedisDelivery<T> implements Delivery<T> {
    private final QueueEngine<T> engine;
    private final MessageId id;
    private final int attempt;
    private final byte[] body;
    private T payload;

    RedisDelivery(QueueEngine<T> engine, MessageId id, int attempt, byte[] body) {
        this.engine = engine;
        this.id = id;
        this.attempt = attempt;
        this.body = body;
    }

    QueueEngine<T> engine() {
        return engine;
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
        return engine.ack(id, attempt);
    }

    @Override
    public boolean retry(Duration delay) {
        return engine.retry(id, attempt, Checks.retryDelay(delay));
    }

    @Override
    public boolean deadLetter(String reason) {
        return engine.deadLetter(id, attempt, reason);
    }

    @Override
    public String toString() {
        return "Delivery[" + engine.label() + " " + id + " attempt " + attempt + "]";
    }
}
