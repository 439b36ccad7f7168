package io.queuekit;

import java.util.List;
import java.util.Optional;

/**
 * The dead letters of one queue: messages that failed their maximum number of attempts or were
 * dead-lettered by a handler. They are kept for the queue's dead-letter retention (a count, the
 * oldest dropped first) until requeued or purged. All methods are thread-safe and throw
 * {@link QueueClosedException} once the queue is closed; a null id is refused with
 * {@link NullPointerException}.
 *
 * @param <T> the payload type
 */
public interface DeadLetters<T> {

    /** How many dead letters there are. */
    long size();

    /**
     * Up to {@code limit} dead letters, oldest first.
     *
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    List<DeadLetter<T>> list(int limit);

    /**
     * The dead letter {@code id}, if there is one: to look at it before requeueing or purging it.
     * Its payload is decoded as {@link #list(int)} decodes it, so this never throws for its body.
     */
    Optional<DeadLetter<T>> find(MessageId id);

    /**
     * Moves one dead letter back to the ready messages with its attempt count reset, to be
     * delivered as if new.
     *
     * @return {@code false} if no dead letter has that id
     */
    boolean requeue(MessageId id);

    /** Requeues every dead letter, oldest first; returns how many. */
    long requeueAll();

    /**
     * Deletes one dead letter.
     *
     * @return {@code false} if no dead letter has that id
     */
    boolean purge(MessageId id);

    /** Deletes every dead letter; returns how many. */
    long purge();
}
