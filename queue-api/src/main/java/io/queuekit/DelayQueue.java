package io.queuekit;

import java.time.Duration;
import java.time.Instant;

/**
 * A work queue whose messages become ready at a due time. A message is never delivered before it
 * is due; once due it is delivered as soon as a consumer waits, ready messages in order of due
 * time and those due at the same moment in send order. {@link #send(Object)} is scheduling with no
 * delay, so a delay queue is also a complete {@link MessageQueue}, with the same receiving,
 * settling, redelivery and closing rules.
 *
 * <h2>Time</h2>
 * A relative delay is measured on the transport's clock (for Redis: the server's {@code TIME}), so
 * a producer or consumer whose own clock is skewed cannot make a message due early. An absolute
 * {@link Instant} is honoured as given; an instant in the past means now.
 *
 * <h2>Ids and idempotence</h2>
 * Scheduling with a caller-chosen {@link MessageId} stores one message per id: while a message with
 * that id is stored (waiting, ready, in flight or dead), a second schedule with the same id is
 * <b>ignored</b> and returns {@code false}; the first payload and due time stand. Once the message
 * is acked, purged or cancelled, the id may be used again. A chosen id may not begin with
 * {@link MessageId#GENERATED_MARK}, which marks the ids the queue generates, so chosen and generated
 * ids never meet; a delivery of an earlier message under a reused id can never settle the new one.
 *
 * <h2>Limits</h2>
 * Delays and due times must lie within {@link #MAX_DELAY} of now; further ones are refused with
 * {@link IllegalArgumentException}, as are negative delays.
 *
 * @param <T> the payload type
 */
public interface DelayQueue<T> extends MessageQueue<T> {

    /** The furthest a message may be scheduled ahead: 10 years. */
    Duration MAX_DELAY = Duration.ofDays(3653);

    /**
     * Stores a message that becomes ready after {@code delay}.
     *
     * @param delay zero or more, at most {@link #MAX_DELAY}
     * @return the new message's id
     */
    MessageId schedule(T payload, Duration delay);

    /**
     * Stores a message that becomes ready at {@code dueAt}; a past instant means now.
     *
     * @return the new message's id
     */
    MessageId scheduleAt(T payload, Instant dueAt);

    /**
     * Stores a message under a caller-chosen id, unless one with that id is already stored.
     *
     * @return {@code true} if stored, {@code false} if ignored because the id exists
     * @throws IllegalArgumentException if the id begins with {@link MessageId#GENERATED_MARK}
     */
    boolean schedule(MessageId id, T payload, Duration delay);

    /** As {@link #schedule(MessageId, Object, Duration)}, at an absolute time. */
    boolean scheduleAt(MessageId id, T payload, Instant dueAt);

    /**
     * Removes a message that has not been handed to a consumer (waiting or ready). O(log n) on
     * Redis.
     *
     * @return {@code true} if removed; {@code false} if no such message is waiting (never stored,
     *     already delivered, in flight, acked or dead)
     */
    boolean cancel(MessageId id);
}
