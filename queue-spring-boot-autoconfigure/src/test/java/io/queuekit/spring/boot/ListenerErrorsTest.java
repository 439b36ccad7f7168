package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.DeadLetter;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.spring.boot.QueueListenerErrorHandler.Decision;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A {@link QueueListenerErrorHandler} bean, and a listener's own retry backoff. */
@RedisServerTest
@Timeout(60)
class ListenerErrorsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    ListenerErrorsTest(RedisServer server) {
        this.server = server;
    }

    /** Fails every order whose id starts with "broken", and "flaky" ones on their first attempt. */
    static class OrderHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();
        final ConcurrentHashMap<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @QueueListener(queue = "orders", initialBackoff = "${test.initial-backoff:}", maxBackoff = "${test.max:}")
        void handle(Order order) {
            int call =
                    calls.computeIfAbsent(order.id(), k -> new AtomicInteger()).incrementAndGet();
            if (order.id().startsWith("broken") || (order.id().startsWith("flaky") && call == 1)) {
                throw new IllegalStateException("payment service down");
            }
            handled.add(order.id());
        }
    }

    /** Decides by the order id's first word: "broken-ack-1" is acked, "broken-dead-1" dead-lettered. */
    static class ErrorHandler implements QueueListenerErrorHandler {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public Decision handle(String queue, io.queuekit.Delivery<?> delivery, Exception exception) throws Exception {
            Order order = (Order) delivery.payload();
            seen.add(queue + " " + order.id() + " " + delivery.attempt() + " " + exception.getMessage());
            if (order.id().contains("-ack-")) {
                return Decision.ACK;
            }
            if (order.id().contains("-dead-")) {
                return Decision.DEAD_LETTER;
            }
            if (order.id().contains("-throw-")) {
                throw new IllegalArgumentException("undecided");
            }
            return Decision.RETRY;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(OrderHandler.class)
    static class App {
        @Autowired
        MessageQueue<Order> orders;
    }

    static class BadBackoff {
        @QueueListener(queue = "audits", initialBackoff = "soon")
        void audit(String line) {}
    }

    static class MaxBelowInitial {
        @QueueListener(queue = "audits", initialBackoff = "2s", maxBackoff = "1s")
        void audit(String line) {}
    }

    private ApplicationContextRunner context() {
        String prefix = Contexts.unique("errors");
        return Contexts.on(server)
                .withUserConfiguration(App.class)
                .withPropertyValues(
                        "queuekit.queues.orders.key-prefix=" + prefix,
                        "queuekit.queues.orders.max-attempts=3",
                        "queuekit.queues.orders.retry.initial-backoff=50ms",
                        "queuekit.queues.orders.retry.max-backoff=100ms",
                        "queuekit.queues.audits.key-prefix=" + prefix);
    }

    private static Order order(String id) {
        return new Order(id, 100, Instant.parse("2026-12-01T10:00:00Z"));
    }

    @Test
    void theErrorHandler_decidesEachFailedAttempt() {
        ErrorHandler errors = new ErrorHandler();
        context().withBean(QueueListenerErrorHandler.class, () -> errors).run(context -> {
            App app = context.getBean(App.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.orders.send(order("broken-dead-1"));
            await().atMost(WAIT).until(() -> app.orders.deadLetters().size() == 1);
            DeadLetter<Order> dead = app.orders.deadLetters().list(1).get(0);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.reason()).contains(IllegalStateException.class.getName(), "payment service down");
            assertThat(errors.seen).containsExactly("orders broken-dead-1 1 payment service down");

            app.orders.deadLetters().purge();
            app.orders.send(order("broken-ack-1"));
            await().atMost(WAIT).until(() -> app.orders.stats().equals(new QueueStats(0, 0, 0, 0)));
            assertThat(handler.calls.get("broken-ack-1")).hasValue(1);

            app.orders.send(order("broken-retry-1"));
            app.orders.send(order("broken-throw-1"));
            await().atMost(WAIT).until(() -> app.orders.deadLetters().size() == 2);
            assertThat(handler.calls.get("broken-retry-1")).hasValue(3);
            assertThat(handler.calls.get("broken-throw-1")).hasValue(3);
            assertThat(errors.seen).contains("orders broken-throw-1 3 payment service down");
        });
    }

    @Test
    void aListenersBackoff_overridesTheQueues() {
        // the queue's own backoff would keep the retry beyond the test's time
        context()
                .withPropertyValues(
                        "queuekit.queues.orders.retry.initial-backoff=1h",
                        "queuekit.queues.orders.retry.max-backoff=2h",
                        "test.initial-backoff=20ms",
                        "test.max=40ms")
                .run(context -> {
                    App app = context.getBean(App.class);
                    OrderHandler handler = context.getBean(OrderHandler.class);
                    app.orders.send(order("flaky-1"));
                    await().atMost(WAIT).until(() -> handler.handled.contains("flaky-1"));
                    assertThat(handler.calls.get("flaky-1")).hasValue(2);
                });
        // the initial backoff alone: the queue's max-backoff is raised to it
        context()
                .withPropertyValues(
                        "queuekit.queues.orders.retry.initial-backoff=1s",
                        "queuekit.queues.orders.retry.max-backoff=2s",
                        "test.initial-backoff=5s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aBadBackoff_failsStartUp_namingTheMethod() {
        context().withBean(BadBackoff.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(ListenerRegistryTest.configurationFailure(context.getStartupFailure()))
                    .hasMessageContaining("BadBackoff.audit(String)")
                    .hasMessageContaining("initialBackoff");
        });
        context().withBean(MaxBelowInitial.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(ListenerRegistryTest.configurationFailure(context.getStartupFailure())
                            .getMessage())
                    .contains("MaxBelowInitial.audit(String)", "max backoff must not be below");
        });
    }
}
