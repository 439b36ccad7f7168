package io.queuekit.inmemory;

import io.queuekit.Topic;
import io.queuekit.tck.ConsumerGroupContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

/** One group of a topic as a queue, on a virtual clock, keeping the very objects sent (no codec). */
class InMemoryGroupContractTest extends ConsumerGroupContractTest {
    private final ManualClock clock = new ManualClock();

    @Override
    protected Topic<String> createTopic(String name, QueueConfig config) {
        return InMemoryTopic.<String>builder(name)
                .clock(clock)
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations())
                .build();
    }

    @Override
    protected boolean appliesCodec() {
        return false;
    }

    @Override
    protected TimeControl time() {
        return TimeControl.virtual(clock, clock::advance);
    }
}
