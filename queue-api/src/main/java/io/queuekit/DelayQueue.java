package io.queuekit;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

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
 * <h2>Batches</h2>
 * {@link #scheduleAll(Collection, Duration)} and {@link #scheduleAllAt(Collection, Instant)} store
 * many messages due at one time, as {@link #sendAll(Collection)} stores many ready ones;
 * {@link #scheduleEach(Collection)} stores many messages each due at its own time, given as a
 * {@link Scheduled}, each with its own headers. All three are checked in full before anything is
 * stored, then stored together, in one round trip on Redis.
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
    default MessageId schedule(T payload, Duration delay) {
        return schedule(payload, Headers.empty(), delay);
    }

    /**
     * Stores a message with headers that becomes ready after {@code delay}; see
     * {@link MessageQueue#send(Object, Headers)} for the headers.
     *
     * @param delay zero or more, at most {@link #MAX_DELAY}
     * @return the new message's id
     */
    MessageId schedule(T payload, Headers headers, Duration delay);

    /**
     * Stores a message that becomes ready at {@code dueAt}; a past instant means now.
     *
     * @return the new message's id
     */
    default MessageId scheduleAt(T payload, Instant dueAt) {
        return scheduleAt(payload, Headers.empty(), dueAt);
    }

    /** As {@link #scheduleAt(Object, Instant)}, with headers. */
    MessageId scheduleAt(T payload, Headers headers, Instant dueAt);

    /**
     * Stores a message under a caller-chosen id, unless one with that id is already stored.
     *
     * @return {@code true} if stored, {@code false} if ignored because the id exists
     * @throws IllegalArgumentException if the id begins with {@link MessageId#GENERATED_MARK}
     */
    default boolean schedule(MessageId id, T payload, Duration delay) {
        return schedule(id, payload, Headers.empty(), delay);
    }

    /**
     * As {@link #schedule(MessageId, Object, Duration)}, with headers; a schedule ignored because
     * the id exists leaves the first message's headers as they are.
     */
    boolean schedule(MessageId id, T payload, Headers headers, Duration delay);

    /** As {@link #schedule(MessageId, Object, Duration)}, at an absolute time. */
    default boolean scheduleAt(MessageId id, T payload, Instant dueAt) {
        return scheduleAt(id, payload, Headers.empty(), dueAt);
    }

    /** As {@link #schedule(MessageId, Object, Headers, Duration)}, at an absolute time. */
    boolean scheduleAt(MessageId id, T payload, Headers headers, Instant dueAt);

    /**
     * Stores several messages that all become ready after {@code delay}: the batch form of
     * {@link #schedule(Object, Duration)}, with the same rules for the delay, and
     * {@link #sendAll(Collection)}'s rules for the batch.
     *
     * <ul>
     *   <li><b>Checked first, all or nothing.</b> The collection, every element and the delay are
     *       checked, and every payload encoded, before anything is stored; if any is refused the
     *       call throws and none is stored. So one null element among a thousand stores nothing.</li>
     *   <li><b>Together.</b> Otherwise all are stored at once: in one round trip where the
     *       transport has a server, and so that no consumer sees part of the batch (the Redis zset
     *       queue runs one script; in memory it is one step under the queue's lock). A
     *       {@link TransportException} does not say whether the batch was stored: all of it may
     *       have been, or, on a transport that stores in several steps, a prefix.</li>
     *   <li><b>Order.</b> The messages fall due together; they take their place among the queue's
     *       other messages by due time, and among themselves keep the order of the collection's
     *       iterator.</li>
     *   <li><b>Empty.</b> An empty collection stores nothing and returns an empty list; the delay
     *       is still checked, and a closed queue still throws.</li>
     * </ul>
     *
     * @param delay zero or more, at most {@link #MAX_DELAY}, as for the single form
     * @return the new messages' ids, in the collection's order; empty for an empty collection
     * @throws NullPointerException if the collection, any element or {@code delay} is null; nothing
     *     is stored
     * @throws IllegalArgumentException if the delay is negative or above {@link #MAX_DELAY}, or an
     *     encoded payload exceeds the queue's size limit; nothing is stored
     * @throws SerializationException if the codec fails on any payload; nothing is stored
     * @throws QueueClosedException if the queue is closed
     */
    List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay);

    /**
     * Stores several messages that all become ready at {@code dueAt} (a past instant means now):
     * the batch form of {@link #scheduleAt(Object, Instant)}, with exactly the rules of
     * {@link #scheduleAll(Collection, Duration)} (checked first, all or nothing; stored together;
     * delivered in the collection's order; an empty collection stores nothing).
     *
     * @return the new messages' ids, in the collection's order; empty for an empty collection
     * @throws NullPointerException if the collection, any element or {@code dueAt} is null; nothing
     *     is stored
     * @throws IllegalArgumentException if {@code dueAt} is more than {@link #MAX_DELAY} ahead, or an
     *     encoded payload exceeds the queue's size limit; nothing is stored
     * @throws SerializationException if the codec fails on any payload; nothing is stored
     * @throws QueueClosedException if the queue is closed
     */
    List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt);

    /**
     * Stores several messages, each becoming ready at its own {@linkplain Scheduled#dueAt() due
     * time} (a past instant means now): the batch form of {@link #scheduleAt(Object, Instant)}
     * with a due time per message, and {@link #sendAll(Collection)}'s rules for the batch.
     *
     * <ul>
     *   <li><b>Checked first, all or nothing.</b> The collection, every element and every due time
     *       are checked, and every payload encoded, before anything is stored; if any is refused
     *       the call throws and none is stored. So one due time too far ahead among a thousand
     *       stores nothing.</li>
     *   <li><b>Together.</b> Otherwise all are stored at once: in one round trip where the
     *       transport has a server, and so that no consumer sees part of the batch (the Redis zset
     *       queue runs one script; in memory it is one step under the queue's lock). A
     *       {@link TransportException} does not say whether the batch was stored: all of it may
     *       have been, or, on a transport that stores in several steps, a prefix.</li>
     *   <li><b>Order.</b> Each message takes its place among the queue's other messages by its
     *       due time; those of the batch due at the same instant keep the order of the
     *       collection's iterator, and so do those whose instant is past, which are all due
     *       now.</li>
     *   <li><b>Empty.</b> An empty collection stores nothing and returns an empty list; a closed
     *       queue still throws.</li>
     * </ul>
     *
     * @param messages the payloads with their due times, each at most {@link #MAX_DELAY} ahead
     * @return the new messages' ids, in the collection's order; empty for an empty collection
     * @throws NullPointerException if the collection or any element is null; nothing is stored
     * @throws IllegalArgumentException if any due time is more than {@link #MAX_DELAY} ahead, or an
     *     encoded payload exceeds the queue's size limit; nothing is stored
     * @throws SerializationException if the codec fails on any payload; nothing is stored
     * @throws QueueClosedException if the queue is closed
     */
    List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages);

    /**
     * A new {@link Scheduler} of this queue's recurring schedules, not yet running (it starts at
     * its first {@link Scheduler#put put} or {@link Scheduler#start() start}). It runs every
     * schedule stored for the queue until it or the queue is closed. One per process is enough;
     * more store nothing twice.
     *
     * @throws QueueClosedException if the queue is closed
     */
    Scheduler<T> scheduler();

    /**
     * Removes a message that has not been handed to a consumer (waiting or ready). O(log n) on
     * Redis.
     *
     * @return {@code true} if removed; {@code false} if no such message is waiting (never stored,
     *     already delivered, in flight, acked or dead)
     */
    boolean cancel(MessageId id);
}
