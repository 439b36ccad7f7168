package io.queuekit.spring.boot;

import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Stream listeners on a real Redis. */
@RedisServerTest
@Timeout(90)
class StreamListenersOnRedisTest extends StreamListenerTests {
    private final RedisServer server;

    StreamListenersOnRedisTest(RedisServer server) {
        this.server = server;
    }

    @Override
    ApplicationContextRunner context() {
        return Contexts.on(server)
                .withPropertyValues(properties("queuekit.queues.events.key-prefix=" + Contexts.unique("streams")));
    }

    @Override
    Class<?> topicClass() {
        return RedisStreamTopic.class;
    }
}
