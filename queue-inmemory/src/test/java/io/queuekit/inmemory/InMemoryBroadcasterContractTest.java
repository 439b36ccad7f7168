package io.queuekit.inmemory;

import io.queuekit.Broadcaster;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;

class InMemoryBroadcasterContractTest extends BroadcasterContractTest {

    @Override
    protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
        return InMemoryBroadcaster.<String>builder(channel)
                .observations(observations)
                .build();
    }
}
