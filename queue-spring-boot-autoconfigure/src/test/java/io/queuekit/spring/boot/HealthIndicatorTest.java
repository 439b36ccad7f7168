package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

@Timeout(90)
class HealthIndicatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().requireProcessControl().start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void health_isDown_whileRedisIsKilled_andUpAgain_afterItRestarts() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(context -> {
                    QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                    MessageQueue<?> orders = context.getBean("orders", MessageQueue.class);
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> queue = (MessageQueue<String>) orders;
                    queue.send("a");
                    queue.send("b");

                    Health up = health.health(true);
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails()).containsEntry("redis", "PONG");
                    assertThat(up.getDetails().get("queues"))
                            .isEqualTo(Map.of(
                                    "orders",
                                    Map.of("ready", 2L, "inFlight", 0L, "delayed", 0L, "dead", 0L, "paused", false)));

                    server.kill();
                    Health down = health.health(true);
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsKey("error");

                    server.restart();
                    await().atMost(WAIT)
                            .until(() -> health.health(true).getStatus().equals(Status.UP));
                });
    }

    @Test
    void health_isDown_whenAQueueHoldsMoreDeadLettersThanTheThreshold() {
        String prefix = Contexts.unique("health");
        Contexts.on(server)
                .withPropertyValues(
                        "queuekit.queues.orders.key-prefix=" + prefix, "queuekit.health.dead-letter-threshold=1")
                .run(context -> {
                    QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
                    deadLetter(orders, "first");
                    assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

                    deadLetter(orders, "second");
                    Health down = health.health(true);
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsEntry("deadLetterThreshold", 1L);
                });
    }

    private static void deadLetter(MessageQueue<String> queue, String payload) throws InterruptedException {
        queue.send(payload);
        Delivery<String> delivery = queue.poll(5, TimeUnit.SECONDS);
        assertThat(delivery.deadLetter("test")).isTrue();
    }
}
