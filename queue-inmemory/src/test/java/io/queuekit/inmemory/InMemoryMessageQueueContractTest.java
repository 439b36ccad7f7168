package io.queuekit.inmemory;

import io.queuekit.MessageQueue;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;

class InMemoryMessageQueueContractTest extends MessageQueueContractTest {
    private final ManualClock clock = new ManualClock();

    @Override
    protected MessageQueue<String> createQueue(String name, QueueConfig config) {
        return InMemoryMessageQueue.<String>builder(name)
                .clock(clock)
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations())
                .build();
    }

    /** This run keeps the very objects sent, with no codec; the others use one. */
    @Override
    protected boolean appliesCodec() {
        return false;
    }

    @Override
    protected TimeControl time() {
        return TimeControl.virtual(clock, clock::advance);
    }
}
