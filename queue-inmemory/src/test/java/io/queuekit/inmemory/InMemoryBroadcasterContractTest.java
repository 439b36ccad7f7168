package io.queuekit.inmemory;

import io.queuekit.Broadcaster;
import io.queuekit.tck.BroadcasterContractTest;

class InMemoryBroadcasterContractTest extends BroadcasterContractTest {

    @Override
    protected Broadcaster<String> createBroadcaster(String channel) {
        return InMemoryBroadcaster.create(channel);
    }
}
