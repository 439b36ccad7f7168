package io.queuekit.micrometer;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.queuekit.Headers;
import io.queuekit.spi.MessageObservations.Destination;
import java.util.Objects;

/**
 * The context of a {@code queuekit.process} observation: one message handled by a managed
 * consumer or a broadcast listener of {@link #getDestination()}. Its carrier is the message's
 * {@link Headers}, from which the tracing handler's propagator reads the sender's trace. Kind
 * {@link Kind#CONSUMER}; the remote service is the transport.
 */
public final class QueueProcessContext extends ReceiverContext<Headers> {
    private final Destination destination;

    /** The handling of one message that arrived at {@code destination} with {@code headers}. */
    public QueueProcessContext(Destination destination, Headers headers) {
        super((carrier, name) -> carrier.get(name), Kind.CONSUMER);
        this.destination = Objects.requireNonNull(destination, "destination");
        setCarrier(Objects.requireNonNull(headers, "headers"));
        setRemoteServiceName(destination.transport());
    }

    /** Where the message came from: the queue's or channel's name, its transport and its kind. */
    public Destination getDestination() {
        return destination;
    }

    /** The headers the message arrived with; empty if none. */
    public Headers getHeaders() {
        return Objects.requireNonNull(getCarrier());
    }
}
