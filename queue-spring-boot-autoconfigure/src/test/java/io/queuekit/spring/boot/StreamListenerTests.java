package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Broadcaster;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Listener methods on a stream, as the starter runs them on each transport: every group gets every
 * message, each group retries and dead-letters on its own, and a broadcast listener is a
 * subscription. Subclasses give the transport.
 */
abstract class StreamListenerTests {
    static final Duration WAIT = Duration.ofSeconds(20);

    /** A context with the listeners below and the stream "events" on the subclass's transport. */
    abstract ApplicationContextRunner context();

    /** The class of the topic the transport builds. */
    abstract Class<?> topicClass();

    /** Bills orders: fails "flaky" ones twice, "broken" ones always. */
    static class Billing {
        final List<String> billed = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @QueueListener(queue = "events", group = "billing", concurrency = "2")
        void bill(Order order) {
            int call =
                    calls.computeIfAbsent(order.id(), k -> new AtomicInteger()).incrementAndGet();
            if (order.id().startsWith("broken") || (order.id().startsWith("flaky") && call <= 2)) {
                throw new IllegalStateException("ledger down");
            }
            billed.add(order.id());
        }
    }

    /** Audits every order, with its headers, in a group named by a placeholder. */
    static class Audit {
        final List<String> audited = new CopyOnWriteArrayList<>();
        final Map<String, Headers> headers = new ConcurrentHashMap<>();

        @QueueListener(queue = "events", group = "${test.audit-group:audit}", id = "audit")
        void audit(Delivery<Order> delivery, Headers headers) {
            audited.add(delivery.payload().id());
            this.headers.put(delivery.payload().id(), headers);
        }
    }

    /** Watches the stream while the instance runs. */
    static class Watcher {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @BroadcastListener(channel = "events")
        void watch(Order order) {
            seen.add(order.id());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import({Billing.class, Audit.class, Watcher.class})
    static class Listeners {
        @Autowired
        Topic<Order> events;

        @Autowired
        Broadcaster<Order> asBroadcaster;
    }

    /** The properties of the stream and its listeners' retries. */
    static String[] properties(String... more) {
        List<String> all = new java.util.ArrayList<>(List.of(
                "queuekit.queues.events.type=stream",
                "queuekit.queues.events.max-attempts=3",
                "queuekit.queues.events.retry.initial-backoff=50ms",
                "queuekit.queues.events.retry.max-backoff=100ms"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    static Order order(String id) {
        return new Order(id, 100, Instant.parse("2026-12-01T10:00:00Z"));
    }

    private static GroupInfo info(Topic<?> topic, String group) {
        return topic.groups().stream()
                .filter(g -> g.name().equals(group))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no group " + group + " in " + topic.groups()));
    }

    @Test
    void theStream_isATopicBean_injectableAsBroadcaster_namedAfterTheStream() {
        context().withUserConfiguration(Listeners.class).run(context -> {
            assertThat(context).hasNotFailed();
            Listeners app = context.getBean(Listeners.class);
            assertThat(app.events).isInstanceOf(topicClass()).isSameAs(app.asBroadcaster);
            assertThat(context.getBean("eventsTopic")).isSameAs(app.events);
            assertThat(context.getBean("events")).isSameAs(app.events);
        });
    }

    @Test
    void everyGroup_receivesEveryMessage_once_andTheSubscriptionToo() {
        context().withUserConfiguration(Listeners.class).run(context -> {
            Listeners app = context.getBean(Listeners.class);
            Billing billing = context.getBean(Billing.class);
            Audit audit = context.getBean(Audit.class);
            Watcher watcher = context.getBean(Watcher.class);
            assertThat(app.events.groups()).extracting(GroupInfo::name).contains("audit", "billing");

            // billing, audit and the watcher's subscription
            assertThat(app.events.publish(order("o-1"), Headers.of("tenant", "acme")))
                    .isEqualTo(3);
            app.events.publish(order("o-2"));
            app.events.publish(order("o-3"));

            List<String> all = List.of("o-1", "o-2", "o-3");
            await().atMost(WAIT).until(() -> billing.billed.containsAll(all) && audit.audited.containsAll(all));
            await().atMost(WAIT).until(() -> watcher.seen.containsAll(all));
            assertThat(billing.billed).hasSize(3);
            assertThat(audit.audited).hasSize(3);
            assertThat(audit.headers.get("o-1")).isEqualTo(Headers.of("tenant", "acme"));
            assertThat(audit.headers.get("o-2")).isEqualTo(Headers.empty());
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(info(app.events, "billing")).isEqualTo(new GroupInfo("billing", 0, 0, 0, 0, false));
                assertThat(info(app.events, "audit")).isEqualTo(new GroupInfo("audit", 0, 0, 0, 0, false));
            });
        });
    }

    @Test
    void aGroupListener_retriesWithBackoff_andDeadLettersAfterMaxAttempts_inItsGroupAlone() {
        context().withUserConfiguration(Listeners.class).run(context -> {
            Listeners app = context.getBean(Listeners.class);
            Billing billing = context.getBean(Billing.class);
            Audit audit = context.getBean(Audit.class);
            app.events.publish(order("flaky-1"));
            app.events.publish(order("broken-1"));

            await().atMost(WAIT).until(() -> billing.billed.contains("flaky-1"));
            assertThat(billing.calls.get("flaky-1")).hasValue(3);
            await().atMost(WAIT).until(() -> info(app.events, "billing").dead() == 1);
            DeadLetter<Order> dead =
                    app.events.group("billing").deadLetters().list(1).get(0);
            assertThat(dead.payload()).isEqualTo(order("broken-1"));
            assertThat(dead.attempts()).isEqualTo(3);
            assertThat(dead.reason()).contains("ledger down");
            assertThat(billing.calls.get("broken-1")).hasValue(3);
            // the other group got both, once, and has nothing dead
            await().atMost(WAIT).until(() -> audit.audited.containsAll(List.of("flaky-1", "broken-1")));
            assertThat(audit.audited).hasSize(2);
            assertThat(info(app.events, "audit").dead()).isZero();
        });
    }

    @Test
    void theRegistry_pausesAGroupListener_whileItsGroupKeepsTheMessages() {
        context().withUserConfiguration(Listeners.class).run(context -> {
            Listeners app = context.getBean(Listeners.class);
            Audit audit = context.getBean(Audit.class);
            QueueListenerRegistry registry = context.getBean(QueueListenerRegistry.class);
            assertThat(registry.listenerIds())
                    .contains("audit", Billing.class.getName() + ".bill", Watcher.class.getName() + ".watch");

            registry.pause("audit");
            app.events.publish(order("o-paused"));
            await().atMost(WAIT)
                    .until(() -> context.getBean(Billing.class).billed.contains("o-paused"));
            assertThat(audit.audited).isEmpty();
            assertThat(info(app.events, "audit").lag()).isIn(1L, -1L);

            registry.resume("audit");
            await().atMost(WAIT).until(() -> audit.audited.equals(List.of("o-paused")));
        });
    }

    @Test
    void aGroupsCounts_reachTheQueueGauges_taggedWithTheGroupsName() {
        context()
                .withUserConfiguration(Listeners.class)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("queuekit.queues.events.max-attempts=1")
                .run(context -> {
                    Listeners app = context.getBean(Listeners.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    app.events.publish(order("broken-2"));

                    await().atMost(WAIT).until(() -> info(app.events, "billing").dead() == 1);
                    await().atMost(WAIT)
                            .untilAsserted(() -> assertThat(registry.find("queuekit.dead")
                                            .tag("queue", "billing")
                                            .gauge())
                                    .isNotNull()
                                    .satisfies(g -> assertThat(g.value()).isEqualTo(1.0)));
                    assertThat(registry.find("queuekit.dead.lettered")
                                    .tag("queue", "billing")
                                    .counter())
                            .isNotNull()
                            .satisfies(c -> assertThat(c.count()).isEqualTo(1.0));
                    assertThat(registry.find("queuekit.acked")
                                    .tag("queue", "audit")
                                    .counter())
                            .isNotNull()
                            .satisfies(c -> assertThat(c.count()).isEqualTo(1.0));
                });
    }
}
