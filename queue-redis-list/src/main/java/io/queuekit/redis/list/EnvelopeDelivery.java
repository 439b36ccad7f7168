package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import java.time.Instant;

/**
 * What both modes' deliveries read from their envelope: id, attempt, enqueue time, payload and
 * headers.
 */
abstract class EnvelopeDelivery<T> implements Delivery<T> {
    final Envelope envelope;
    private final ListMode<T> mode;
    private T payload;
    private Headers headers;

    EnvelopeDelivery(ListMode<T> mode, Envelope envelope) {
        this.mode = mode;
        this.envelope = envelope;
    }

    /** The mode of the shard that handed it out, where it settles. */
    ListMode<T> mode() {
        return mode;
    }

    @Override
    public final MessageId id() {
        return envelope.id;
    }

    @Override
    public final synchronized T payload() {
        if (payload == null) {
            payload = mode.decode(envelope.payload());
        }
        return payload;
    }

    /** {@inheritDoc} Read from the element at the first call: a look at its first bytes if it has none. */
    @Override
    public final synchronized Headers headers() {
        if (headers == null) {
            headers = envelope.headers();
        }
        return headers;
    }

    @Override
    public final int attempt() {
        return envelope.attempt;
    }

    @Override
    public final Instant enqueuedAt() {
        return Instant.ofEpochMilli(envelope.enqueuedMillis);
    }
}
