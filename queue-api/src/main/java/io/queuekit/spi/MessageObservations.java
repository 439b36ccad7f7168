package io.queuekit.spi;

import io.queuekit.Headers;
import java.util.Objects;

/**
 * Where a queue or broadcaster lets tracing see its messages: every send (send, schedule, their
 * batch forms, publish) runs inside {@link #sending}, which may add headers that carry the
 * sender's trace, and every message a managed consumer or a broadcast listener handles runs
 * inside {@link #handling}, given the headers the message arrived with. Without observations a
 * transport gets {@link #NONE}, which adds nothing and costs nothing. The Micrometer Observation
 * implementation lives in the {@code queue-micrometer} module.
 *
 * <p>Implementations must be thread-safe. What {@code sending} adds is merged into each message's
 * own headers, replacing any of the same name, before the message is checked against
 * {@link Headers}' limits and stored.
 */
public interface MessageObservations {

    /** No observations: sends add no headers and handlers run as they are. */
    MessageObservations NONE = new MessageObservations() {};

    /**
     * Where messages go.
     *
     * @param name the queue's or channel's name
     * @param transport the transport's name, as {@link io.queuekit.Semantics#transport()} says it
     * @param kind a work queue or a broadcast channel
     */
    record Destination(String name, String transport, Kind kind) {
        public Destination {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** What a destination is. */
    enum Kind {
        /** A {@link io.queuekit.MessageQueue}: each message to one consumer. */
        QUEUE,
        /** A {@link io.queuekit.Broadcaster}: each message to every subscriber. */
        BROADCAST
    }

    /** One send: stores its messages with the headers it is given added to theirs. */
    @FunctionalInterface
    interface Send<R> {
        R send(Headers added);
    }

    /** One handling of a message: the consumer's handler or the listener. */
    @FunctionalInterface
    interface Handling {
        void run() throws Exception;
    }

    /**
     * Runs one send of {@code count} messages to {@code destination}: calls {@code send} once,
     * with the headers to add to every message (none by default), and returns what it returns,
     * or rethrows what it throws.
     */
    default <R> R sending(Destination destination, int count, Send<R> send) {
        return send.send(Headers.empty());
    }

    /**
     * Runs the handling of one message that arrived with {@code headers} at {@code destination}:
     * calls {@code handling} once and rethrows what it throws.
     */
    default void handling(Destination destination, Headers headers, Handling handling) throws Exception {
        handling.run();
    }
}
