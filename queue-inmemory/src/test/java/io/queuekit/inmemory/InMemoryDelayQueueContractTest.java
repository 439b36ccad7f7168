package io.queuekit.inmemory;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

class InMemoryDelayQueueContractTest extends DelayQueueContractTest {
    private final ManualClock clock = new ManualClock();

    @Override
    protected DelayQueue<String> createQueue(String name, QueueConfig config) {
        return InMemoryDelayQueue.<String>builder(name)
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
