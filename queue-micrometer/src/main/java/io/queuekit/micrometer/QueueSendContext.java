package io.queuekit.micrometer;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import io.queuekit.spi.MessageObservations.Destination;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The context of a {@code queuekit.send} observation: one send, schedule or publish of
 * {@link #getMessageCount()} messages to {@link #getDestination()}. Its carrier is the map the
 * tracing handler's propagator writes into ({@code traceparent}, {@code tracestate}); what it
 * holds when the observation has started is added to the headers of every message sent. Kind
 * {@link Kind#PRODUCER}; the remote service is the transport ({@code redis-list},
 * {@code in-memory}, ...).
 */
public final class QueueSendContext extends SenderContext<Map<String, String>> {
    private final Destination destination;
    private final int messageCount;

    /**
     * A send of {@code messageCount} messages to {@code destination}, with an empty carrier.
     *
     * @throws IllegalArgumentException if {@code messageCount} is negative
     */
    public QueueSendContext(Destination destination, int messageCount) {
        super(
                (carrier, name, value) -> {
                    if (carrier != null) {
                        carrier.put(name, value);
                    }
                },
                Kind.PRODUCER);
        this.destination = Objects.requireNonNull(destination, "destination");
        if (messageCount < 0) {
            throw new IllegalArgumentException("message count must not be negative: " + messageCount);
        }
        this.messageCount = messageCount;
        setCarrier(new LinkedHashMap<>());
        setRemoteServiceName(destination.transport());
    }

    /** Where the messages go: the queue's or channel's name, its transport and its kind. */
    public Destination getDestination() {
        return destination;
    }

    /** How many messages the send stores or publishes: 1, or a batch's size. */
    public int getMessageCount() {
        return messageCount;
    }
}
