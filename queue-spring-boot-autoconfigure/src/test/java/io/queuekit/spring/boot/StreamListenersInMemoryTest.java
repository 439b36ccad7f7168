package io.queuekit.spring.boot;

import io.queuekit.inmemory.InMemoryTopic;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Stream listeners with {@code queuekit.transport=in-memory}. */
@Timeout(60)
class StreamListenersInMemoryTest extends StreamListenerTests {

    @Override
    ApplicationContextRunner context() {
        return Contexts.inMemory().withPropertyValues(properties());
    }

    @Override
    Class<?> topicClass() {
        return InMemoryTopic.class;
    }
}
