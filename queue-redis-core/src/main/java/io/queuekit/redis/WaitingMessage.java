package io.queuekit.redis;

import io.queuekit.Headers;
import io.queuekit.MessageId;
import java.time.Instant;
import java.util.Objects;

/**
 * A message waiting in a Redis queue, as {@code peek} shows it without taking it: what an operator
 * wants to see of the next messages to be delivered.
 *
 * <p>A queue's keys may also hold entries that other programs wrote there. Such an entry is shown
 * as found: {@code enqueuedAt} is then null and {@code payload}, if any, is the whole stored entry
 * decoded, and the list queue, which keeps no id apart from its messages, gives it a null
 * {@code id} too. The queue dead-letters such an entry when it reaches it (the list queue) or hands
 * it out as it is (the delay queue).
 *
 * @param id the message's id; null for an entry that is not a message of this library
 * @param attempt the attempt its next delivery will be: 1 for a message never delivered, higher
 *     for a retried or returned one; 0 for an entry that is not a message of this library
 * @param enqueuedAt when it was first sent (the sender's clock for the list queue, the server's for
 *     the delay queue); null if the stored entry does not say
 * @param dueAt when it falls due (delay queue); null for the list queue, whose waiting messages are
 *     all ready
 * @param payload the decoded payload; null if the stored body is missing or could not be decoded
 * @param headers the headers it was sent with, as {@link io.queuekit.Delivery#headers()} will give
 *     them; empty if it has none, or if the stored body is missing or its headers could not be read
 * @param <T> the payload type
 */
public record WaitingMessage<T>(
        MessageId id, int attempt, Instant enqueuedAt, Instant dueAt, T payload, Headers headers) {

    public WaitingMessage {
        Objects.requireNonNull(headers, "headers");
    }

    /** A waiting message without headers. */
    public WaitingMessage(MessageId id, int attempt, Instant enqueuedAt, Instant dueAt, T payload) {
        this(id, attempt, enqueuedAt, dueAt, payload, Headers.empty());
    }
}
