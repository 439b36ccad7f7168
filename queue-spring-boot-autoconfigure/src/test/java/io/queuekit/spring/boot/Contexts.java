package io.queuekit.spring.boot;

import io.queuekit.testing.RedisServer;
import java.util.UUID;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Application contexts with queuekit's auto-configuration on a real Redis, for the tests. */
final class Contexts {
    private Contexts() {}

    /** A context on {@code server}, with Boot's Jackson, whose queue names get {@code suffix}. */
    static ApplicationContextRunner on(RedisServer server) {
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(JacksonAutoConfiguration.class, QueuekitAutoConfiguration.class))
                .withPropertyValues(
                        "spring.data.redis.host=" + server.host(),
                        "spring.data.redis.port=" + server.port(),
                        "spring.lifecycle.timeout-per-shutdown-phase=10s");
    }

    /** A context with the in-memory transport, with Boot's Jackson. */
    static ApplicationContextRunner inMemory() {
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(JacksonAutoConfiguration.class, QueuekitAutoConfiguration.class))
                .withPropertyValues("queuekit.transport=in-memory", "spring.lifecycle.timeout-per-shutdown-phase=10s");
    }

    /** A name no other test uses, for queues on the shared server. */
    static String unique(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
