package io.queuekit;

/**
 * Publish/subscribe on one channel: every subscriber present when a message is published receives
 * it; no one else ever does. Read {@link #semantics()}: the Redis PUB/SUB transport is
 * at-most-once and keeps nothing for subscribers who are absent or disconnected at that moment.
 *
 * <h2>Subscribing</h2>
 * {@link #subscribe(MessageListener)} returns only once the transport has confirmed the
 * subscription, so a message published after it returns reaches the listener. Each subscription
 * delivers to its listener one message at a time, in publish order, on its own named thread
 * ({@code queuekit-<channel>-subscriber-<n>}). A listener that throws is logged and counted and
 * keeps receiving; one slow listener does not hold up others (but see the transport's notes on
 * what a server does to a subscriber that falls far behind).
 *
 * <h2>Nulls, threads, closing</h2>
 * Null messages and listeners are refused with {@link NullPointerException}. All methods are
 * thread-safe. {@link #close()} closes every subscription and makes later calls throw
 * {@link QueueClosedException}; it is idempotent.
 *
 * @param <T> the payload type
 */
public interface Broadcaster<T> extends AutoCloseable {

    /** The channel's name, as given to the builder. */
    String name();

    /**
     * Sends a message to every current subscriber.
     *
     * @return how many subscribers received it, as the transport counts them (for Redis: the
     *     number of subscribed connections, across all processes); zero means no one did and the
     *     message is gone
     */
    long publish(T message);

    /**
     * Starts delivering messages published from now on to {@code listener}.
     *
     * @return the subscription; close it to stop
     */
    Subscription subscribe(MessageListener<? super T> listener);

    /** What this transport promises. */
    Semantics semantics();

    /** Closes every subscription; idempotent. */
    @Override
    void close();
}
