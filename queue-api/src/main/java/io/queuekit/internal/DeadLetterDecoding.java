package io.queuekit.internal;

import io.queuekit.DeadLetter;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Turns a stored dead letter into a {@link DeadLetter} the same way on every transport, and never
 * throws for its body: listing dead letters is how an operator finds the messages that could not
 * be read. A body that cannot be decoded (whatever the codec or the body's parsing throws) lists
 * with a null payload, and its reason says so once: a reason that already begins with
 * {@value #UNDECODABLE} (a managed consumer's, for a message it could not decode) stands as it is,
 * any other gets {@code " (payload undecodable: <why>)"} appended.
 */
public final class DeadLetterDecoding {
    /** How the reason of a message dead-lettered for its undecodable body begins. */
    public static final String UNDECODABLE = "undecodable";

    private DeadLetterDecoding() {}

    /**
     * The dead letter, its payload decoded by {@code payload}.
     *
     * @param reason as stored; null reads as empty
     */
    public static <T> DeadLetter<T> of(
            MessageId id, int attempts, String reason, Instant deadAt, Headers headers, Supplier<T> payload) {
        String why = reason == null ? "" : reason;
        T decoded = null;
        try {
            decoded = payload.get();
        } catch (RuntimeException e) {
            if (!why.startsWith(UNDECODABLE)) {
                why = why + " (payload " + UNDECODABLE + ": " + e.getMessage() + ")";
            }
        }
        return new DeadLetter<>(id, decoded, attempts, why, deadAt, headers);
    }
}
