package io.queuekit.internal;

import io.queuekit.Headers;
import io.queuekit.MessageId;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The dead letters as a store keeps them, for {@link QueueRuntime#deadLetters()}, which checks
 * arguments and the queue's state first and decodes with {@link DeadLetterDecoding}, the same on
 * every transport.
 */
public interface DeadLetterStore<T> {

    /**
     * One dead letter as stored; {@code payload} decodes its body, and may throw; {@code headers}
     * are none if they could not be read.
     */
    record Stored<T>(MessageId id, int attempts, String reason, Instant deadAt, Headers headers, Supplier<T> payload) {}

    long size();

    /** The oldest {@code limit} (positive) dead letters, in the order they died. */
    List<Stored<T>> oldest(int limit);

    /** The dead letter {@code id}, or null if none has that id. */
    Stored<T> find(MessageId id);

    /** Moves the dead letter {@code id} back to the ready messages, attempts reset; false if none. */
    boolean requeue(MessageId id);

    /** Requeues every dead letter, oldest first; how many. */
    long requeueAll();

    /** Deletes the dead letter {@code id}; false if none. */
    boolean purge(MessageId id);

    /** Deletes every dead letter; how many. */
    long purgeAll();
}
