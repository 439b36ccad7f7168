package io.queuekit;

import java.util.Collection;
import java.util.Objects;

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
    default long publish(T message) {
        return publish(message, Headers.empty());
    }

    /**
     * Sends a message with headers to every current subscriber; a subscription made with
     * {@link #subscribeWithHeaders} receives them as given (with those the publisher's
     * observations added).
     *
     * @return as {@link #publish(Object)}
     * @throws NullPointerException if {@code message} or {@code headers} is null
     */
    long publish(T message, Headers headers);

    /**
     * Publishes several messages, in the order of the collection's iterator: the batch form of
     * {@link #publish(Object)}, for bursts.
     *
     * <ul>
     *   <li><b>Checked first.</b> The collection and every element are checked, and every message
     *       encoded, before anything is published; if any is refused the call throws and nothing
     *       was published.</li>
     *   <li><b>One round trip, not a transaction.</b> A transport with a server sends the batch in
     *       one round trip (Redis: {@code PUBLISH} commands in one pipeline, not a {@code MULTI}).
     *       Each subscription receives the messages in this order, but messages of other publishers
     *       may come between them, and a subscription that starts or ends during the call may
     *       receive only part of the batch. A {@link TransportException} part way may leave a
     *       prefix of the batch published.</li>
     *   <li><b>Empty.</b> An empty collection publishes nothing and returns an empty array; a closed
     *       broadcaster still throws.</li>
     * </ul>
     *
     * @return for each message, in order, how many subscribers received it, as {@link #publish}
     *     counts them (on Redis, the subscribed connections across all processes, so the counts can
     *     differ within a batch as subscriptions come and go; in memory, the subscriptions the
     *     message was handed to, the same for the whole batch unless a subscription's buffer filled)
     * @throws NullPointerException if the collection or any element is null; nothing was published
     * @throws IllegalArgumentException if an encoded message is larger than the transport allows;
     *     nothing was published
     * @throws SerializationException if the codec fails on any message; nothing was published
     * @throws QueueClosedException if the broadcaster is closed
     */
    long[] publishAll(Collection<? extends T> messages);

    /**
     * Starts delivering messages published from now on to {@code listener}.
     *
     * @return the subscription; close it to stop
     */
    default Subscription subscribe(MessageListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        return subscribeWithHeaders(new BroadcastListener<T>() {
            @Override
            public void onMessage(T message, Headers headers) throws Exception {
                listener.onMessage(message);
            }

            @Override
            public String toString() {
                return listener.toString();
            }
        });
    }

    /**
     * As {@link #subscribe(MessageListener)}, to a listener that receives each message's headers
     * too (empty for a message published without any).
     *
     * @return the subscription; close it to stop
     */
    Subscription subscribeWithHeaders(BroadcastListener<? super T> listener);

    /** What this transport promises. */
    Semantics semantics();

    /** Closes every subscription; idempotent. */
    @Override
    void close();
}
