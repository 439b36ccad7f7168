package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Broadcaster;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** What meets an application where it is deployed: the platform's variables, its start order, its settings. */
@RedisServerTest
@Timeout(90)
class DeploymentTest {
    private final RedisServer server;

    DeploymentTest(RedisServer server) {
        this.server = server;
    }

    static class Listeners {
        final List<String> orders = new CopyOnWriteArrayList<>();
        final List<String> prices = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders")
        void order(String order) {
            orders.add(order);
        }

        @BroadcastListener(channel = "prices")
        void price(String price) {
            prices.add(price);
        }
    }

    @Test
    void kubernetesServiceVariables_forAServiceNamedQueuekit_areIgnored() {
        // what Kubernetes puts in every pod's environment for a Service named "queuekit"; Boot reads a
        // source as environment variables when its name is, or ends with, "systemEnvironment"
        Map<String, Object> serviceVariables = Map.of(
                "QUEUEKIT_SERVICE_HOST", "10.96.0.12",
                "QUEUEKIT_SERVICE_PORT", "8080",
                "QUEUEKIT_PORT", "tcp://10.96.0.12:8080",
                "QUEUEKIT_PORT_8080_TCP_ADDR", "10.96.0.12");
        Contexts.on(server)
                .withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addLast(new SystemEnvironmentPropertySource("kubernetes-systemEnvironment", serviceVariables)))
                .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("k8s"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("ordersQueue")).isInstanceOf(MessageQueue.class);
                });
        // the application's own configuration is still checked
        Contexts.on(server)
                .withPropertyValues("queuekit.service.port=8080")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void aShutdownPhaseOfTwoHours_starts() {
        Contexts.on(server)
                .withUserConfiguration(Listeners.class)
                .withPropertyValues(
                        "spring.lifecycle.timeout-per-shutdown-phase=2h",
                        "queuekit.queues.orders.key-prefix=" + Contexts.unique("long"),
                        "queuekit.queues.prices.type=broadcast",
                        "queuekit.queues.prices.key-prefix=" + Contexts.unique("long"))
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void listeners_startWhileRedisIsDown_andWorkOnceItIsUp() {
        try (RedisServer late = RedisServer.builder().requireProcessControl().start()) {
            late.stop();
            String prefix = Contexts.unique("late");
            Contexts.on(late)
                    .withUserConfiguration(Listeners.class)
                    .withPropertyValues(
                            "spring.data.redis.timeout=500ms",
                            "spring.data.redis.connect-timeout=500ms",
                            "queuekit.queues.orders.key-prefix=" + prefix,
                            "queuekit.queues.prices.type=broadcast",
                            "queuekit.queues.prices.key-prefix=" + prefix)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        Listeners listeners = context.getBean(Listeners.class);
                        late.restart();

                        @SuppressWarnings("unchecked")
                        Broadcaster<String> prices = context.getBean("pricesBroadcaster", Broadcaster.class);
                        // published until the listener, subscribing again and again, is there to hear one
                        await().atMost(Duration.ofSeconds(30)).until(() -> {
                            prices.publish("42");
                            return !listeners.prices.isEmpty();
                        });
                        @SuppressWarnings("unchecked")
                        MessageQueue<String> orders = context.getBean("ordersQueue", MessageQueue.class);
                        orders.send("o-1");
                        await().atMost(Duration.ofSeconds(30)).until(() -> listeners.orders.contains("o-1"));
                    });
        }
    }
}
