package io.queuekit.inmemory;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

/** One group of a topic as a queue on the system clock, with the codec, as a user's code meets it. */
class InMemoryGroupSystemClockContractTest extends ConsumerGroupContractTest {

    @Override
    protected Topic<String> createTopic(String name, QueueConfig config) {
        return InMemoryTopic.<String>builder(name)
                .codec(config.codec())
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations())
                .build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.real();
    }
}
