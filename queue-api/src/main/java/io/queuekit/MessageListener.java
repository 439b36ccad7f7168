package io.queuekit;

/**
 * Receives broadcast messages from a {@link Broadcaster} subscription, one at a time, in publish
 * order, on the subscription's own thread. An exception thrown here is logged and counted; the
 * subscription carries on with the next message.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface MessageListener<T> {
    void onMessage(T message) throws Exception;
}
