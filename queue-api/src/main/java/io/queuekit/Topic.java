package io.queuekit;

import java.util.List;

/**
 * Durable fan-out: a {@link Broadcaster} whose messages are kept for named {@linkplain ConsumerGroup
 * consumer groups}. Each group receives every message published after it was created (or from the
 * {@link Position} it was created at); within a group each message goes to one consumer, at least
 * once, with leases, retries and dead letters as on a {@link MessageQueue}. A group keeps its
 * messages while none of its consumers runs: a service that is redeploying misses nothing.
 *
 * <pre>{@code
 * ConsumerGroup<OrderEvent> billing = orders.group("billing");   // created once, kept
 * billing.consume(d -> bill(d.payload()));                       // every instance of the service
 * orders.publish(new OrderEvent(...));                           // every group gets a copy
 * }</pre>
 *
 * <h2>Groups and subscriptions</h2>
 * {@link #group(String)} creates a group the first time it is named and returns the same stored
 * group to every caller after that, in every process; {@link #deleteGroup(String)} removes it with
 * what it has not acked. {@link #subscribe(MessageListener)} is the {@link Broadcaster} form: each
 * subscription is a group of its own that starts at the moment it subscribes, is at least once
 * while it lasts, and is deleted when it closes, so it does not hold back retention; it is the
 * at-least-once counterpart of a pub/sub subscription, not a durable one.
 *
 * <h2>Publishing</h2>
 * {@link #publish(Object)} stores the message once, for every group, and returns how many groups
 * (subscriptions included) it was stored for; zero means no group exists and the message is kept
 * only for a group created later from an earlier {@link Position}.
 *
 * <h2>Retention</h2>
 * What every group has acked may be removed, by length or age as the transport's builder says;
 * what some group has not acked is kept unless the user chose a hard cap, and a message a hard cap
 * removed before a group got it is counted in {@link GroupInfo#missed()}, never skipped silently.
 *
 * @param <T> the payload type
 */
public interface Topic<T> extends Broadcaster<T> {

    /**
     * The group named {@code name}, created if it does not exist yet so that it receives every
     * message published from now on; an existing group is returned as it stands.
     *
     * @param name 1 to 100 letters, digits, {@code '.'}, {@code '_'} or {@code '-'}
     * @throws IllegalArgumentException if the name is not of that form
     * @throws QueueClosedException if the topic is closed
     */
    default ConsumerGroup<T> group(String name) {
        return group(name, Position.end());
    }

    /**
     * The group named {@code name}, created if it does not exist yet so that it receives every
     * message from {@code start} on (as far as they are still retained); an existing group is
     * returned as it stands ({@link ConsumerGroup#replayFrom(Position)} moves it).
     *
     * @throws IllegalArgumentException if the name is not of the form {@link #group(String)} gives
     * @throws QueueClosedException if the topic is closed
     */
    ConsumerGroup<T> group(String name, Position start);

    /** Every group of this topic as stored now, subscriptions included, in name order. */
    List<GroupInfo> groups();

    /**
     * Deletes a group with its dead letters and what it has not acked; its consumer-group objects
     * refuse further calls. Other groups are untouched.
     *
     * @return whether the group existed
     */
    boolean deleteGroup(String name);

    /** How many messages the topic holds now, for all groups together. */
    long size();
}
