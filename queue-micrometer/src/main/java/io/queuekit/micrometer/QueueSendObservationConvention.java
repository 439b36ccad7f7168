package io.queuekit.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a send. Its default methods are the default convention:
 * named {@code queuekit.send}, contextual (span) name {@code send <queue>}, low-cardinality tags
 * {@code queue}, {@code transport}, {@code kind} ({@code queue} or {@code broadcast}) and
 * {@code outcome} ({@code success} or {@code failure}), high-cardinality tag {@code messages}
 * (how many the send carried). To add a tag, implement this interface and extend what the default
 * gives:
 *
 * <pre>{@code
 * QueueSendObservationConvention withTenant = new QueueSendObservationConvention() {
 *     public KeyValues getLowCardinalityKeyValues(QueueSendContext context) {
 *         return QueueSendObservationConvention.super.getLowCardinalityKeyValues(context)
 *                 .and("tenant", Tenants.current());
 *     }
 * };
 * }</pre>
 *
 * and give it to {@link MicrometerObservations.Builder#sendConvention} (the Spring Boot starter
 * uses a bean of this type). Implementations must be thread-safe.
 */
public interface QueueSendObservationConvention extends ObservationConvention<QueueSendContext> {

    @Override
    default String getName() {
        return "queuekit.send";
    }

    @Override
    default String getContextualName(QueueSendContext context) {
        return "send " + context.getDestination().name();
    }

    @Override
    default KeyValues getLowCardinalityKeyValues(QueueSendContext context) {
        return QueueTags.of(context.getDestination(), context.getError() == null);
    }

    @Override
    default KeyValues getHighCardinalityKeyValues(QueueSendContext context) {
        return KeyValues.of("messages", Integer.toString(context.getMessageCount()));
    }

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof QueueSendContext;
    }
}
