package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Broadcaster;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link QueueListenerRegistry}: listener ids, autoStartup, and starting, stopping and pausing by id. */
@RedisServerTest
@Timeout(60)
class ListenerRegistryTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    ListenerRegistryTest(RedisServer server) {
        this.server = server;
    }

    /** Holds "slow" orders until the test lets them go. */
    static class OrderHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();
        final CountDownLatch slowStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @QueueListener(queue = "orders")
        void handle(Order order) throws InterruptedException {
            if (order.id().startsWith("slow")) {
                slowStarted.countDown();
                if (!release.await(30, TimeUnit.SECONDS)) {
                    return;
                }
            }
            handled.add(order.id());
        }
    }

    static class AuditHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "audits", id = "${test.audits-id:audits}", autoStartup = "${test.audits-auto:false}")
        void audit(String line) {
            handled.add(line);
        }
    }

    static class PriceListener {
        final List<String> prices = new CopyOnWriteArrayList<>();

        @BroadcastListener(channel = "prices", id = "prices")
        void onPrice(String price) {
            prices.add(price);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import({OrderHandler.class, AuditHandler.class, PriceListener.class})
    static class Listeners {
        @Autowired
        MessageQueue<Order> orders;

        @Autowired
        MessageQueue<String> audits;

        @Autowired
        Broadcaster<String> prices;

        @Autowired
        QueueListenerRegistry registry;
    }

    static class SameIdAgain {
        @QueueListener(queue = "audits", id = "audits")
        void audit(String line) {}
    }

    static class BadAutoStartup {
        @QueueListener(queue = "audits", autoStartup = "${test.auto:yes}")
        void audit(String line) {}
    }

    private ApplicationContextRunner context() {
        String prefix = Contexts.unique("registry");
        return Contexts.on(server)
                .withUserConfiguration(Listeners.class)
                .withPropertyValues(
                        "queuekit.queues.orders.key-prefix=" + prefix,
                        "queuekit.queues.audits.key-prefix=" + prefix,
                        "queuekit.queues.prices.type=broadcast",
                        "queuekit.queues.prices.key-prefix=" + prefix);
    }

    private static Order order(String id) {
        return new Order(id, 100, Instant.parse("2026-12-01T10:00:00Z"));
    }

    /** The {@link QueueConfigurationException} a start-up failure holds, failing if it holds none. */
    static QueueConfigurationException configurationFailure(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof QueueConfigurationException e) {
                return e;
            }
        }
        throw new AssertionError("no QueueConfigurationException in " + failure, failure);
    }

    private static String orderHandlerId() {
        return OrderHandler.class.getName() + ".handle";
    }

    @Test
    void ids_areTheAnnotationsOrBeanNameDotMethodName() {
        context().run(context -> {
            QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
            assertThat(registry.listenerIds()).containsExactlyInAnyOrder(orderHandlerId(), "audits", "prices");
            assertThat(registry.isRunning(orderHandlerId())).isTrue();
            assertThat(registry.isRunning("prices")).isTrue();
        });
    }

    @Test
    void autoStartupFalse_waitsForStart_byItsId() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            AuditHandler handler = context.getBean(AuditHandler.class);
            assertThat(app.registry.isRunning("audits")).isFalse();
            app.audits.send("login alice");
            assertThat(app.audits.stats().ready()).isEqualTo(1);

            app.registry.start("audits");
            assertThat(app.registry.isRunning("audits")).isTrue();
            await().atMost(WAIT).until(() -> handler.handled.equals(List.of("login alice")));
        });
        context()
                .withPropertyValues("test.audits-auto=true", "test.audits-id=audit-log")
                .run(context -> {
                    QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
                    assertThat(registry.isRunning("audit-log")).isTrue();
                });
    }

    @Test
    void stop_waitsForTheRunningHandler_thenStartConsumesAgain() throws Exception {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.orders.send(order("slow-1"));
            assertThat(handler.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();

            Thread stopper = new Thread(() -> app.registry.stop(orderHandlerId()), "test-stopper");
            stopper.start();
            await().atMost(WAIT).until(() -> !app.registry.isRunning(orderHandlerId()));
            assertThat(stopper.isAlive()).isTrue(); // the handler still runs
            handler.release.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(stopper.isAlive()).isFalse();
            assertThat(handler.handled).containsExactly("slow-1");
            assertThat(app.orders.stats()).isEqualTo(new QueueStats(0, 0, 0, 0)); // acked before stop returned

            app.orders.send(order("later-1"));
            assertThat(app.orders.stats().ready()).isEqualTo(1);
            app.registry.start(orderHandlerId());
            await().atMost(WAIT).until(() -> handler.handled.contains("later-1"));
        });
    }

    @Test
    void pause_stopsFetching_andResume_goesOn() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.registry.pause(orderHandlerId());
            assertThat(app.registry.isPaused(orderHandlerId())).isTrue();
            assertThat(app.registry.isRunning(orderHandlerId())).isTrue();

            app.orders.send(order("held-1"));
            assertThat(app.orders.stats().ready()).isEqualTo(1);
            assertThat(handler.handled).isEmpty();

            app.registry.resume(orderHandlerId());
            assertThat(app.registry.isPaused(orderHandlerId())).isFalse();
            await().atMost(WAIT).until(() -> handler.handled.equals(List.of("held-1")));
        });
    }

    @Test
    void aBroadcastListener_unsubscribesWhenStoppedOrPaused() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            PriceListener listener = context.getBean(PriceListener.class);
            app.registry.stop("prices");
            assertThat(app.prices.publish("EUR 1.07")).isZero();

            app.registry.start("prices");
            assertThat(app.prices.publish("EUR 1.08")).isEqualTo(1);
            await().atMost(WAIT).until(() -> listener.prices.equals(List.of("EUR 1.08")));

            app.registry.pause("prices");
            assertThat(app.prices.publish("EUR 1.09")).isZero();
            app.registry.resume("prices");
            assertThat(app.prices.publish("EUR 1.10")).isEqualTo(1);
            await().atMost(WAIT).until(() -> listener.prices.equals(List.of("EUR 1.08", "EUR 1.10")));
        });
    }

    @Test
    void anUnknownId_isRefused_namingIt() {
        context().run(context -> {
            QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
            assertThatThrownBy(() -> registry.stop("ordres"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'ordres'")
                    .hasMessageContaining("audits");
            assertThatThrownBy(() -> registry.isRunning("ordres")).isInstanceOf(IllegalArgumentException.class);
        });
    }

    @Test
    void closingTheContext_stopsListenersStartedByHand() {
        context().run(context -> {
            QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
            registry.start("audits");
            context.close();
            assertThat(registry.isRunning("audits")).isFalse();
            assertThat(registry.isRunning(orderHandlerId())).isFalse();
        });
    }

    @Test
    void duplicateIds_failStartUp_namingBothMethods() {
        context().withBean(SameIdAgain.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationFailure(context.getStartupFailure()))
                    .hasMessageContaining("AuditHandler.audit(String)")
                    .hasMessageContaining("SameIdAgain.audit(String)")
                    .hasMessageContaining("'audits'");
        });
    }

    @Test
    void anAutoStartupThatIsNotABoolean_failsStartUp_namingTheMethod() {
        context().withBean(BadAutoStartup.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationFailure(context.getStartupFailure()))
                    .hasMessageContaining("BadAutoStartup.audit(String)")
                    .hasMessageContaining("\"yes\"");
        });
    }
}
