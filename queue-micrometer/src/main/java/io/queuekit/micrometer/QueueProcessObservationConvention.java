package io.queuekit.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a handled message. Its default methods are the default
 * convention: named {@code queuekit.process}, contextual (span) name {@code process <queue>},
 * low-cardinality tags {@code queue}, {@code transport}, {@code kind} ({@code queue} or
 * {@code broadcast}) and {@code outcome} ({@code success}, or {@code failure} when the handler
 * threw). Extend it as {@link QueueSendObservationConvention} shows, for instance with a tag read
 * from the message's headers ({@link QueueProcessContext#getHeaders()}), and give it to
 * {@link MicrometerObservations.Builder#processConvention} (the Spring Boot starter uses a bean of
 * this type). Implementations must be thread-safe.
 */
public interface QueueProcessObservationConvention extends ObservationConvention<QueueProcessContext> {

    @Override
    default String getName() {
        return "queuekit.process";
    }

    @Override
    default String getContextualName(QueueProcessContext context) {
        return "process " + context.getDestination().name();
    }

    @Override
    default KeyValues getLowCardinalityKeyValues(QueueProcessContext context) {
        return QueueTags.of(context.getDestination(), context.getError() == null);
    }

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof QueueProcessContext;
    }
}
