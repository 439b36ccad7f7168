package io.queuekit;

import java.time.Duration;
import java.time.Instant;

/**
 * One message handed to one consumer, and the consumer's means to settle it.
 *
 * <p><b>At-least-once transports</b> ({@link Semantics#guarantee()} is
 * {@link Semantics.Guarantee#AT_LEAST_ONCE}) keep the message in flight under a lease of the
 * queue's visibility timeout. The consumer settles it once, with {@link #ack()},
 * {@link #retry(Duration)} or {@link #deadLetter(String)}. If it does neither before the lease
 * expires (it crashed, hung, or lost its connection), the message becomes ready again and is
 * delivered anew with {@link #attempt()} one higher; past the queue's maximum attempts it is moved
 * to the dead letters instead. A settling call made after the lease expired does nothing and
 * returns {@code false}: the newer delivery owns the message.
 *
 * <p><b>At-most-once transports</b> removed the message when they handed it out. {@code ack()}
 * only returns {@code true}; {@code retry} stores the payload again as a new attempt and
 * {@code deadLetter} stores it among the dead letters, both best-effort.
 *
 * <p><b>Ownership.</b> Each hand-out of a message carries its own fencing token: a settling call
 * succeeds only for the hand-out that currently owns the message. A delivery whose lease expired
 * can never settle (or extend) a later hand-out of the same message, nor a newer message stored
 * under the same id after the first was acked, cancelled or requeued from the dead letters.
 *
 * <p>Instances are thread-safe; settling twice returns {@code false} the second time. Settling
 * works while the queue is closing ({@link MessageQueue#close()} lets running handlers finish and
 * settle); on a closed queue it throws {@link QueueClosedException} and leaves the message to its
 * lease.
 *
 * @param <T> the payload type
 */
public interface Delivery<T> {

    /** The message's id, stable across redeliveries. */
    MessageId id();

    /**
     * The decoded payload; never null.
     *
     * @throws SerializationException if the stored body cannot be decoded by the queue's codec. The
     *     delivery can still be settled; managed consumers dead-letter such a message at once,
     *     since no retry can decode it.
     */
    T payload();

    /**
     * The headers the message was sent with (with those the sender's observations added), exactly
     * as given; empty if it had none. The same on every delivery of the message.
     */
    Headers headers();

    /** 1 for the first delivery, one more for each redelivery or retry. */
    int attempt();

    /** When the message was first sent (for delayed messages: scheduled), on the transport's clock. */
    Instant enqueuedAt();

    /**
     * Marks the message done and deletes it.
     *
     * @return {@code true} if this call settled the message; {@code false} if it was already
     *     settled or its lease had expired (it may then be delivered again)
     * @throws TransportException if the transport failed; the lease then decides
     */
    boolean ack();

    /**
     * Gives the message back to be delivered again after {@code delay} (zero: at once), with its
     * attempt count raised. Every queue transport honours the delay; while it runs the message
     * counts as {@linkplain QueueStats#delayed() delayed}.
     *
     * @param delay not negative
     * @return as for {@link #ack()}
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    boolean retry(Duration delay);

    /**
     * Moves the message to the queue's dead letters with a reason, where it stays until
     * {@linkplain DeadLetters#requeue(MessageId) requeued}, {@linkplain DeadLetters#purge()
     * purged}, or dropped by the queue's dead-letter retention.
     *
     * @param reason shown to operators; null becomes an empty reason
     * @return as for {@link #ack()}
     */
    boolean deadLetter(String reason);

    /**
     * Extends this delivery's lease so that it ends {@code duration} from now, on the transport's
     * clock, for a consumer that needs longer than the visibility timeout. It does not change the
     * attempt count, and the delivery keeps its ownership: settling afterwards follows the same
     * rules. Managed consumers ({@link MessageQueue#consume}) renew the leases of the messages they
     * hold on their own, up to {@link ConsumeOptions#leaseRenewalLimit()}.
     *
     * <p>At-most-once transports keep no lease; there this only returns whether the delivery is
     * still unsettled.
     *
     * @param duration how long from now the lease lasts: 10 ms to 12 h, the range of a visibility
     *     timeout
     * @return {@code true} if this delivery still owns its message and its lease now ends
     *     {@code duration} from now; {@code false} if it was settled or its lease had already
     *     expired (the message may have been handed out again)
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if {@code duration} is out of range
     * @throws TransportException if the transport failed; the lease is then unchanged
     */
    boolean extendLease(Duration duration);
}
