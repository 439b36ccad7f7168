package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.GroupInfo;
import io.queuekit.Topic;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group listener starts while Redis is down, as queue and broadcast listeners do: start-up goes
 * on, and its group is made and consumed once Redis answers.
 */
@Timeout(90)
class StreamListenerRedisDownTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private RedisServer server;

    @BeforeEach
    void start() {
        server = RedisServer.builder().requireProcessControl().start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static class Billing {
        final List<String> billed = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "events", group = "billing")
        void bill(Order order) {
            billed.add(order.id());
        }
    }

    @Test
    void aGroupListener_startedWhileRedisIsDown_consumesItsGroupOnceRedisAnswers() {
        server.stop();
        Contexts.on(server)
                .withBean("billing", Billing.class, Billing::new)
                .withPropertyValues("queuekit.queues.events.type=stream")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
                    assertThat(registry.isRunning("billing.bill")).isTrue();

                    server.restart();
                    @SuppressWarnings("unchecked")
                    Topic<Order> events = context.getBean("events", Topic.class);
                    await().atMost(WAIT)
                            .ignoreExceptions()
                            .until(() -> events.groups().stream()
                                    .map(GroupInfo::name)
                                    .toList()
                                    .contains("billing"));
                    events.publish(new Order("o-1", 100, Instant.parse("2026-12-01T10:00:00Z")));
                    Billing billing = context.getBean(Billing.class);
                    await().atMost(WAIT).until(() -> billing.billed.equals(List.of("o-1")));
                });
    }
}
