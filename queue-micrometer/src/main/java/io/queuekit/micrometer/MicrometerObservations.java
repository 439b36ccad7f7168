package io.queuekit.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.queuekit.Headers;
import io.queuekit.spi.MessageObservations;
import java.util.Map;
import java.util.Objects;

/**
 * Micrometer Observations for every queuekit transport: pass it to a transport's builder
 * ({@code .observations(MicrometerObservations.of(registry))}). Each send, schedule or publish runs
 * in a {@code queuekit.send} observation ({@link QueueSendContext}, a producer), and each message a
 * managed consumer ({@code consume}) or a broadcast listener handles runs in a
 * {@code queuekit.process} observation ({@link QueueProcessContext}, a consumer) that is current
 * around the handler; a handler's exception is recorded on it. Tags and names are those of
 * {@link QueueSendObservationConvention} and {@link QueueProcessObservationConvention}, or of a
 * {@code GlobalObservationConvention} registered for these contexts, or of the conventions given
 * to the {@link Builder}, which win over both.
 *
 * <p>With Micrometer Tracing's handlers in the registry, the send's span is injected into the
 * messages' headers by the tracer's propagator (W3C {@code traceparent} and {@code tracestate}, or
 * B3, as the tracer is set up) and the handler's span continues that trace. Those headers count
 * against {@link Headers#MAX_COUNT} and {@link Headers#MAX_BYTES} beside the message's own: a send
 * whose headers would then exceed them is refused, and stores nothing. With a no-op registry
 * nothing is observed and no header is added.
 *
 * <p>Easy to get wrong: messages polled with {@code poll} or {@code take} are not observed, since
 * queuekit cannot know where their handling ends; only {@code consume} and listeners are. Immutable
 * and thread-safe.
 */
public final class MicrometerObservations implements MessageObservations {
    private static final QueueSendObservationConvention DEFAULT_SEND = new QueueSendObservationConvention() {};
    private static final QueueProcessObservationConvention DEFAULT_PROCESS = new QueueProcessObservationConvention() {};

    private final ObservationRegistry registry;
    /** Null unless the builder was given one: then a global convention of the registry may apply. */
    private final QueueSendObservationConvention sendConvention;

    private final QueueProcessObservationConvention processConvention;

    private MicrometerObservations(Builder builder) {
        this.registry = builder.registry;
        this.sendConvention = builder.sendConvention;
        this.processConvention = builder.processConvention;
    }

    /** Observations in {@code registry} with the default conventions. */
    public static MicrometerObservations of(ObservationRegistry registry) {
        return builder(registry).build();
    }

    /** A builder of observations in {@code registry}. */
    public static Builder builder(ObservationRegistry registry) {
        return new Builder(registry);
    }

    @Override
    public <R> R sending(Destination destination, int count, Send<R> send) {
        Objects.requireNonNull(send, "send");
        if (registry.isNoop()) {
            return send.send(Headers.empty());
        }
        QueueSendContext context = new QueueSendContext(destination, count);
        Observation observation = Observation.createNotStarted(sendConvention, DEFAULT_SEND, () -> context, registry);
        // the propagator fills the carrier when the observation starts, before the supplier runs
        return observation.observe(() -> send.send(headersOf(context.getCarrier())));
    }

    @Override
    public void handling(Destination destination, Headers headers, Handling handling) throws Exception {
        Objects.requireNonNull(handling, "handling");
        if (registry.isNoop()) {
            handling.run();
            return;
        }
        QueueProcessContext context = new QueueProcessContext(destination, headers);
        Observation.createNotStarted(processConvention, DEFAULT_PROCESS, () -> context, registry)
                .observeChecked(handling::run);
    }

    private static Headers headersOf(Map<String, String> carrier) {
        return carrier == null || carrier.isEmpty() ? Headers.empty() : Headers.of(carrier);
    }

    @Override
    public String toString() {
        return "MicrometerObservations[" + registry + "]";
    }

    /** Builds {@link MicrometerObservations}; not thread-safe. */
    public static final class Builder {
        private final ObservationRegistry registry;
        private QueueSendObservationConvention sendConvention;
        private QueueProcessObservationConvention processConvention;

        private Builder(ObservationRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /** How sends are named and tagged, in place of the default and of any global convention. */
        public Builder sendConvention(QueueSendObservationConvention convention) {
            this.sendConvention = Objects.requireNonNull(convention, "send convention");
            return this;
        }

        /** How handled messages are named and tagged, in place of the default and of any global convention. */
        public Builder processConvention(QueueProcessObservationConvention convention) {
            this.processConvention = Objects.requireNonNull(convention, "process convention");
            return this;
        }

        /** The observations. */
        public MicrometerObservations build() {
            return new MicrometerObservations(this);
        }
    }
}
