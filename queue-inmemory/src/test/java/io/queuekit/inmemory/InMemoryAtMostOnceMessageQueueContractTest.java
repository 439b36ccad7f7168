package io.queuekit.inmemory;

import io.queuekit.MessageQueue;
import io.queuekit.Semantics;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

/** At-most-once mode, with payloads round-tripped through a codec as on Redis. */
class InMemoryAtMostOnceMessageQueueContractTest extends MessageQueueContractTest {
    private final ManualClock clock = new ManualClock();

    @Override
    protected MessageQueue<String> createQueue(String name, QueueConfig config) {
        return InMemoryMessageQueue.<String>builder(name)
                .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                .codec(config.codec())
                .clock(clock)
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations())
                .build();
    }

    @Override
    protected TimeControl time() {
        return TimeControl.virtual(clock, clock::advance);
    }
}
