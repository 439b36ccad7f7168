package io.queuekit;

/**
 * Receives broadcast messages with their headers from a subscription made with
 * {@link Broadcaster#subscribeWithHeaders}, one at a time, in publish order, on the subscription's
 * own thread, as a {@link MessageListener} does. An exception thrown here is logged and counted;
 * the subscription carries on with the next message.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface BroadcastListener<T> {
    /**
     * Handles one message.
     *
     * @param headers the headers it was published with; empty if none
     */
    void onMessage(T message, Headers headers) throws Exception;
}
