package io.queuekit.internal;

import java.util.Objects;

/**
 * What a broadcast subscription's source puts in its {@link BroadcastDispatch}: a message as it
 * arrived, to decode and hand to the listener, or an event to run in order with the messages (a
 * gap reported to a callback, say).
 *
 * @param <B> the form a message arrives in: bytes, or in memory without a codec the object itself
 */
public final class Inbound<B> {
    private final B body;
    private final String channel;
    private final long size;
    private final long arrivedNanos;
    private final String event;
    private final Runnable action;

    private Inbound(B body, String channel, long size, long arrivedNanos, String event, Runnable action) {
        this.body = body;
        this.channel = channel;
        this.size = size;
        this.arrivedNanos = arrivedNanos;
        this.event = event;
        this.action = action;
    }

    /**
     * A message.
     *
     * @param channel the name of the channel it came from, told to the listener; null for the
     *     subscription's own channel
     * @param size what it counts against the subscription's byte bound
     * @param arrivedNanos when it arrived ({@link System#nanoTime()}), for the delivery latency
     */
    public static <B> Inbound<B> message(B body, String channel, long size, long arrivedNanos) {
        return new Inbound<>(Objects.requireNonNull(body, "body"), channel, size, arrivedNanos, null, null);
    }

    /**
     * An event, run on the listener's thread between the messages before and after it.
     *
     * @param what names it in the log line if it throws ({@code "the onGap callback"})
     */
    public static <B> Inbound<B> event(String what, Runnable action) {
        return new Inbound<>(
                null, null, 0, 0, Objects.requireNonNull(what, "what"), Objects.requireNonNull(action, "action"));
    }

    boolean isEvent() {
        return action != null;
    }

    B body() {
        return body;
    }

    String channel() {
        return channel;
    }

    long size() {
        return size;
    }

    long arrivedNanos() {
        return arrivedNanos;
    }

    String event() {
        return event;
    }

    Runnable action() {
        return action;
    }
}
