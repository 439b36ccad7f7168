package io.queuekit.inmemory;

import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.TopicContractTest;

class InMemoryTopicContractTest extends TopicContractTest {

    @Override
    protected Topic<String> createTopic(String name, MessageObservations observations) {
        return InMemoryTopic.<String>builder(name).observations(observations).build();
    }
}
