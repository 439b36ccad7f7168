package io.queuekit.micrometer;

import io.micrometer.common.KeyValues;
import io.queuekit.spi.MessageObservations.Destination;
import java.util.Locale;

/** The low-cardinality tags both default conventions give, named as the queue metrics name theirs. */
final class QueueTags {
    private QueueTags() {}

    static KeyValues of(Destination destination, boolean success) {
        return KeyValues.of(
                "queue", destination.name(),
                "transport", destination.transport(),
                "kind", destination.kind().name().toLowerCase(Locale.ROOT),
                "outcome", success ? "success" : "failure");
    }
}
