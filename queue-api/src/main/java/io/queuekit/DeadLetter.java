package io.queuekit;

import java.time.Instant;
import java.util.Objects;

/**
 * A message in a queue's dead letters.
 *
 * @param id the message's id
 * @param payload the decoded payload, or null when the stored body could not be decoded (the
 *     reason then says so)
 * @param attempts how many times it was delivered
 * @param reason why it was dead-lettered
 * @param deadAt when it was dead-lettered, on the transport's clock
 * @param headers the headers it was sent with (none if they could not be read)
 * @param <T> the payload type
 */
public record DeadLetter<T>(MessageId id, T payload, int attempts, String reason, Instant deadAt, Headers headers) {

    public DeadLetter {
        Objects.requireNonNull(headers, "headers");
    }

    /** A dead letter without headers. */
    public DeadLetter(MessageId id, T payload, int attempts, String reason, Instant deadAt) {
        this(id, payload, attempts, reason, deadAt, Headers.empty());
    }
}
