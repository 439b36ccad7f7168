package io.queuekit.inmemory;

import io.queuekit.DelayQueue;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

/**
 * The whole contract on the system clock, as a user's code meets the in-memory queues without a
 * {@link ManualClock}: waiters are then woken by time passing, not by clock advances.
 */
class InMemorySystemClockContractTest extends DelayQueueContractTest {

    @Override
    protected DelayQueue<String> createQueue(String name, QueueConfig config) {
        return InMemoryDelayQueue.<String>builder(name)
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
