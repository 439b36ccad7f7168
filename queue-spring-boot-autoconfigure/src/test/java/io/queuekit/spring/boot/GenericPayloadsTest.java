package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.ResolvableType;

/**
 * Payload types with type arguments ({@code List<Order>}, {@code Page<Order>}) are taken from the
 * listener methods whole: the queue's bean has them, and its codec decodes into them, on Redis and
 * in memory alike.
 */
@RedisServerTest
@Timeout(60)
class GenericPayloadsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    GenericPayloadsTest(RedisServer server) {
        this.server = server;
    }

    /** A record with a generic field, used as {@code Page<Order>}. */
    record Page<T>(int number, List<T> items) {}

    record Invoice(String id) {}

    /** Reads each element as an Order, as an application does: a wrong element type fails here. */
    static class Handlers {
        final List<String> listed = new CopyOnWriteArrayList<>();
        final List<List<Order>> lists = new CopyOnWriteArrayList<>();
        final List<String> paged = new CopyOnWriteArrayList<>();
        final List<Page<Order>> pages = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "lists")
        void handle(List<Order> orders) {
            for (Order order : orders) {
                listed.add(order.id());
            }
            lists.add(orders);
        }

        @QueueListener(queue = "pages")
        void page(Delivery<Page<Order>> delivery) {
            for (Order order : delivery.payload().items()) {
                paged.add(order.id());
            }
            pages.add(delivery.payload());
        }
    }

    /** Injects the queues by their full generic types. */
    @Configuration(proxyBeanMethods = false)
    @Import(Handlers.class)
    static class Senders {
        @Autowired
        MessageQueue<List<Order>> lists;

        @Autowired
        MessageQueue<Page<Order>> pages;
    }

    private ApplicationContextRunner context(String transport) {
        String prefix = Contexts.unique("generics");
        return Contexts.on(server)
                .withUserConfiguration(Senders.class)
                .withPropertyValues(
                        "queuekit.transport=" + transport,
                        "queuekit.queues.lists.key-prefix=" + prefix,
                        "queuekit.queues.lists.max-attempts=2",
                        "queuekit.queues.lists.retry.initial-backoff=10ms",
                        "queuekit.queues.pages.key-prefix=" + prefix,
                        "queuekit.queues.pages.max-attempts=2",
                        "queuekit.queues.pages.retry.initial-backoff=10ms");
    }

    private static Order order(String id) {
        return new Order(id, 100, Instant.parse("2026-12-01T10:00:00Z"));
    }

    /** Waits until {@code handled}, or a message is dead-lettered, and fails with its reason then. */
    private static void awaitHandled(MessageQueue<?> queue, Callable<Boolean> handled) {
        await().atMost(WAIT).until(() -> handled.call() || queue.deadLetters().size() > 0);
        assertThat(queue.deadLetters().list(10)).extracting(DeadLetter::reason).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "in-memory"})
    void aListParameter_receivesOneMessageWhosePayloadIsAList_ofOrders(String transport) {
        context(transport).run(context -> {
            assertThat(context).hasNotFailed();
            Senders app = context.getBean(Senders.class);
            Handlers handlers = context.getBean(Handlers.class);
            app.lists.send(List.of(order("a-1"), order("a-2")));
            app.lists.send(List.of(order("b-1")));

            awaitHandled(app.lists, () -> handlers.lists.size() == 2);
            assertThat(handlers.lists).containsExactly(List.of(order("a-1"), order("a-2")), List.of(order("b-1")));
            assertThat(handlers.listed).containsExactly("a-1", "a-2", "b-1");
            await().atMost(WAIT).until(() -> app.lists.stats().equals(new QueueStats(0, 0, 0, 0)));
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "in-memory"})
    void aRecordWithAGenericField_isDecodedWithItsTypeArgument_throughADelivery(String transport) {
        context(transport).run(context -> {
            assertThat(context).hasNotFailed();
            Senders app = context.getBean(Senders.class);
            Handlers handlers = context.getBean(Handlers.class);
            Page<Order> page = new Page<>(3, List.of(order("p-1"), order("p-2")));
            app.pages.send(page);

            awaitHandled(app.pages, () -> handlers.pages.size() == 1);
            assertThat(handlers.pages).containsExactly(page);
            assertThat(handlers.paged).containsExactly("p-1", "p-2");
            await().atMost(WAIT).until(() -> app.pages.stats().equals(new QueueStats(0, 0, 0, 0)));
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "in-memory"})
    void theQueueBean_hasTheFullGenericType_soOnlyThatTypeInjectsIt(String transport) {
        context(transport).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Senders.class).lists).isSameAs(context.getBean("listsQueue"));
            ResolvableType invoices = ResolvableType.forClassWithGenerics(
                    MessageQueue.class, ResolvableType.forClassWithGenerics(List.class, Invoice.class));
            ResolvableType orders = ResolvableType.forClassWithGenerics(
                    MessageQueue.class, ResolvableType.forClassWithGenerics(List.class, Order.class));
            assertThat(context.getBeanNamesForType(orders)).containsExactly("listsQueue");
            assertThat(context.getBeanNamesForType(invoices)).isEmpty();
        });
    }

    static class TakesTheListsDelivery {
        @QueueListener(queue = "lists")
        void handle(Delivery<List<Order>> delivery) {}
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "in-memory"})
    void listenersOfOneGenericType_shareTheQueue_whetherTheyTakeThePayloadOrTheDelivery(String transport) {
        context(transport).withBean(TakesTheListsDelivery.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Senders.class).lists).isSameAs(context.getBean("listsQueue"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "in-memory"})
    void aPayloadTypePropertyNamingTheRawClass_takesTheListenersTypeArguments(String transport) {
        context(transport)
                .withPropertyValues("queuekit.queues.lists.payload-type=java.util.List")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Senders app = context.getBean(Senders.class);
                    Handlers handlers = context.getBean(Handlers.class);
                    app.lists.send(List.of(order("r-1")));
                    awaitHandled(app.lists, () -> handlers.listed.equals(List.of("r-1")));
                    await().atMost(WAIT).until(() -> app.lists.stats().equals(new QueueStats(0, 0, 0, 0)));
                });
    }
}
