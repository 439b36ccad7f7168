package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Broadcaster;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Listener methods as the starter runs them. Runs alone: one test counts the JVM's consumer threads
 * of queue "orders", which other classes' applications start too.
 */
@RedisServerTest
@Timeout(60)
@Isolated
class ListenerMethodsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    ListenerMethodsTest(RedisServer server) {
        this.server = server;
    }

    /** Thrown for orders that can never succeed. */
    static final class InvalidOrder extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidOrder(String message) {
            super(message);
        }
    }

    /** Handles orders: fails "flaky" ones twice, "broken" ones always, "invalid" ones for good. */
    static class OrderHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();
        final ConcurrentHashMap<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @QueueListener(queue = "orders", concurrency = "${test.concurrency:2}", noRetryFor = InvalidOrder.class)
        void handle(Order order) {
            int call =
                    calls.computeIfAbsent(order.id(), k -> new AtomicInteger()).incrementAndGet();
            if (order.id().startsWith("invalid")) {
                throw new InvalidOrder("no such customer");
            }
            if (order.id().startsWith("broken") || (order.id().startsWith("flaky") && call <= 2)) {
                throw new IllegalStateException("payment service down");
            }
            handled.add(order.id());
        }
    }

    /** Takes the delivery itself, to read the attempt and settle by hand. */
    static class DeliveryHandler {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "audits")
        void audit(Delivery<String> delivery) {
            attempts.add(delivery.attempt());
            delivery.ack();
        }
    }

    static class PriceListener {
        final List<String> prices = new CopyOnWriteArrayList<>();

        @BroadcastListener(channel = "prices")
        void onPrice(String price) {
            prices.add(price);
        }
    }

    /** Takes each message's headers beside its payload, and fails "flaky" messages once. */
    static class TaggedHandler {
        final Map<String, Headers> headers = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @QueueListener(queue = "tagged")
        void handle(String body, Headers headers) {
            int call = calls.computeIfAbsent(body, k -> new AtomicInteger()).incrementAndGet();
            if (body.startsWith("flaky") && call == 1) {
                throw new IllegalStateException("not yet");
            }
            this.headers.put(body, headers);
        }

        @QueueListener(queue = "receipts")
        void receipt(Delivery<String> delivery, Headers headers) {
            this.headers.put(delivery.payload(), headers);
        }

        @BroadcastListener(channel = "quotes")
        void onQuote(String quote, Headers headers) {
            this.headers.put(quote, headers);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import({OrderHandler.class, DeliveryHandler.class, PriceListener.class, TaggedHandler.class})
    static class Listeners {
        @Autowired
        MessageQueue<Order> orders;

        @Autowired
        MessageQueue<String> audits;

        @Autowired
        Broadcaster<String> prices;

        @Autowired
        MessageQueue<String> tagged;

        @Autowired
        MessageQueue<String> receipts;

        @Autowired
        Broadcaster<String> quotes;
    }

    private ApplicationContextRunner context() {
        String prefix = Contexts.unique("listeners");
        return Contexts.on(server)
                .withUserConfiguration(Listeners.class)
                .withPropertyValues(
                        "queuekit.queues.orders.key-prefix=" + prefix,
                        "queuekit.queues.orders.max-attempts=3",
                        "queuekit.queues.orders.retry.initial-backoff=50ms",
                        "queuekit.queues.orders.retry.max-backoff=100ms",
                        "queuekit.queues.audits.key-prefix=" + prefix,
                        "queuekit.queues.tagged.key-prefix=" + prefix,
                        "queuekit.queues.tagged.retry.initial-backoff=50ms",
                        "queuekit.queues.tagged.retry.max-backoff=100ms",
                        "queuekit.queues.receipts.key-prefix=" + prefix,
                        "queuekit.queues.quotes.type=broadcast",
                        "queuekit.queues.quotes.key-prefix=" + prefix,
                        "queuekit.queues.prices.type=broadcast",
                        "queuekit.queues.prices.key-prefix=" + prefix);
    }

    private static Order order(String id) {
        return new Order(id, 100, Instant.parse("2026-12-01T10:00:00Z"));
    }

    @Test
    void returningNormally_acks_andThrowing_retriesUntilItSucceeds() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.orders.send(order("ok-1"));
            app.orders.send(order("flaky-1"));

            await().atMost(WAIT).until(() -> handler.handled.containsAll(List.of("ok-1", "flaky-1")));
            assertThat(handler.calls.get("ok-1")).hasValue(1);
            assertThat(handler.calls.get("flaky-1")).hasValue(3);
            await().atMost(WAIT).until(() -> app.orders.stats().equals(new QueueStats(0, 0, 0, 0)));
        });
    }

    @Test
    void throwingEveryTime_deadLettersAfterMaxAttempts() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.orders.send(order("broken-1"));

            await().atMost(WAIT).until(() -> app.orders.deadLetters().size() == 1);
            DeadLetter<Order> dead = app.orders.deadLetters().list(1).get(0);
            assertThat(dead.payload()).isEqualTo(order("broken-1"));
            assertThat(dead.attempts()).isEqualTo(3);
            assertThat(dead.reason()).contains("payment service down");
            assertThat(handler.calls.get("broken-1")).hasValue(3);
        });
    }

    @Test
    void throwingANoRetryForException_deadLettersAtOnce() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            OrderHandler handler = context.getBean(OrderHandler.class);
            app.orders.send(order("invalid-1"));

            await().atMost(WAIT).until(() -> app.orders.deadLetters().size() == 1);
            DeadLetter<Order> dead = app.orders.deadLetters().list(1).get(0);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.reason()).contains(InvalidOrder.class.getName()).contains("no such customer");
            assertThat(handler.calls.get("invalid-1")).hasValue(1);
        });
    }

    @Test
    void aDeliveryParameter_getsTheDelivery_andMaySettleIt() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            app.audits.send("login alice");

            await().atMost(WAIT)
                    .until(() -> context.getBean(DeliveryHandler.class).attempts.equals(List.of(1)));
            await().atMost(WAIT).until(() -> app.audits.stats().equals(new QueueStats(0, 0, 0, 0)));
        });
    }

    @Test
    void aBroadcastListener_receivesWhatIsPublished() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            PriceListener listener = context.getBean(PriceListener.class);

            assertThat(app.prices.publish("EUR 1.08")).isEqualTo(1);
            await().atMost(WAIT).until(() -> listener.prices.equals(List.of("EUR 1.08")));
        });
    }

    @Test
    void aHeadersParameter_getsTheMessagesHeaders_onEveryAttempt_andNoneForAMessageSentWithout() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            TaggedHandler handler = context.getBean(TaggedHandler.class);
            Headers headers = Headers.of("tenant", "acme").with("correlation-id", "c-\u00e9-1");
            app.tagged.send("plain");
            app.tagged.send("flaky-1", headers);
            app.receipts.send("receipt-1", headers);

            await().atMost(WAIT)
                    .until(() -> handler.headers.keySet().containsAll(List.of("plain", "flaky-1", "receipt-1")));
            assertThat(handler.headers.get("plain")).isEqualTo(Headers.empty());
            assertThat(handler.calls.get("flaky-1")).hasValue(2);
            assertThat(handler.headers.get("flaky-1").asMap()).containsExactlyEntriesOf(headers.asMap());
            assertThat(handler.headers.get("receipt-1")).isEqualTo(headers);
        });
    }

    @Test
    void aBroadcastListenersHeadersParameter_getsThePublishersHeaders() {
        context().run(context -> {
            Listeners app = context.getBean(Listeners.class);
            TaggedHandler handler = context.getBean(TaggedHandler.class);

            assertThat(app.quotes.publish("ACME 12.5", Headers.of("source", "exchange-2")))
                    .isEqualTo(1);
            assertThat(app.quotes.publish("ACME 12.6")).isEqualTo(1);
            await().atMost(WAIT).until(() -> handler.headers.size() == 2);
            assertThat(handler.headers)
                    .containsEntry("ACME 12.5", Headers.of("source", "exchange-2"))
                    .containsEntry("ACME 12.6", Headers.empty());
        });
    }

    @Test
    void concurrency_startsThatManyWorkers() {
        context().withPropertyValues("test.concurrency=3").run(context -> {
            Listeners app = context.getBean(Listeners.class);
            app.orders.send(order("ok-2"));
            await().atMost(WAIT)
                    .until(() -> context.getBean(OrderHandler.class).handled.contains("ok-2"));
            long workers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().contains("orders") && t.getName().contains("consumer"))
                    .count();
            assertThat(workers).isEqualTo(3);
        });
    }
}
