package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Broadcaster;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

@RedisServerTest
@Timeout(60)
class QueuesFromPropertiesTest {
    private final RedisServer server;

    QueuesFromPropertiesTest(RedisServer server) {
        this.server = server;
    }

    /** Beans that inject the queues by their generic types, as an application does. */
    @Configuration(proxyBeanMethods = false)
    static class Injected {
        @Autowired
        MessageQueue<Order> orders;

        @Autowired
        DelayQueue<Order> reminders;

        @Autowired
        Broadcaster<String> prices;

        @Autowired
        @Qualifier("plain")
        MessageQueue<String> plain;
    }

    @Test
    void properties_becomeQueueBeans_ofTheirGenericTypes_onRedis() {
        String orders = Contexts.unique("orders");
        String reminders = Contexts.unique("reminders");
        Contexts.on(server)
                .withUserConfiguration(Injected.class)
                .withPropertyValues(
                        "queuekit.queues.orders.payload-type=" + Order.class.getName(),
                        "queuekit.queues.orders.key-prefix=" + orders,
                        "queuekit.queues.orders.max-attempts=7",
                        "queuekit.queues.reminders.type=delay",
                        "queuekit.queues.reminders.payload-type=" + Order.class.getName(),
                        "queuekit.queues.reminders.key-prefix=" + reminders,
                        "queuekit.queues.prices.type=broadcast",
                        "queuekit.queues.plain.type=list",
                        "queuekit.queues.plain.key-prefix=" + orders)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Injected beans = context.getBean(Injected.class);
                    assertThat(beans.orders).isInstanceOf(RedisListQueue.class);
                    assertThat(beans.reminders).isInstanceOf(RedisDelayQueue.class);
                    assertThat(beans.prices).isInstanceOf(RedisBroadcaster.class);
                    assertThat(context.getBean(UnifiedJedis.class)).isInstanceOf(RedisClient.class);

                    Order order = new Order("o-1", 1250, Instant.now().truncatedTo(ChronoUnit.MILLIS));
                    beans.orders.send(order);
                    Delivery<Order> got = beans.orders.poll(5, TimeUnit.SECONDS);
                    assertThat(got.payload()).isEqualTo(order);
                    assertThat(got.ack()).isTrue();

                    beans.reminders.schedule(order, Duration.ofMillis(200));
                    Delivery<Order> due = beans.reminders.poll(5, TimeUnit.SECONDS);
                    assertThat(due.payload()).isEqualTo(order);
                    assertThat(due.ack()).isTrue();

                    // the JSON is Jackson 3's and readable by any client: the key holds the order's fields
                    beans.orders.send(order);
                    try (RedisClient raw = io.queuekit.testing.RedisClients.create(server)) {
                        assertThat(raw.keys(orders + ":*")).isNotEmpty();
                    }
                });
    }

    @Test
    void aGlobalKeyPrefix_isEveryQueuesPrefix_unlessTheQueueSetsItsOwn() {
        String shared = Contexts.unique("shop");
        String own = Contexts.unique("own");
        Contexts.on(server)
                .withPropertyValues(
                        "queuekit.key-prefix=" + shared,
                        "queuekit.queues.orders.type=list",
                        "queuekit.queues.invoices.type=list",
                        "queuekit.queues.invoices.key-prefix=" + own)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("ordersQueue", MessageQueue.class);
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> invoices = context.getBean("invoicesQueue", MessageQueue.class);
                    orders.send("o-1");
                    invoices.send("i-1");
                    try (RedisClient raw = io.queuekit.testing.RedisClients.create(server)) {
                        assertThat(raw.keys(shared + ":*")).isNotEmpty().allMatch(k -> k.contains("orders"));
                        assertThat(raw.keys(own + ":*")).isNotEmpty().allMatch(k -> k.contains("invoices"));
                    }
                });
    }

    @Test
    void metrics_goToTheApplicationsMeterRegistry() {
        Contexts.on(server)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("metrics"))
                .run(context -> {
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
                    orders.send("o-1");
                    orders.send("o-2");
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("queuekit.sent")
                                    .tag("queue", "orders")
                                    .counter()
                                    .count())
                            .isEqualTo(2.0);
                });
    }

    /** An application service named like its queue, as {@code @Service class Orders} is. */
    static class Orders {
        final MessageQueue<Order> queue;

        Orders(MessageQueue<Order> queue) {
            this.queue = queue;
        }
    }

    @Test
    void aBeanNamedLikeTheQueue_doesNotClash_andTheQueueStillInjects() {
        Contexts.on(server)
                .withBean("orders", Orders.class)
                .withPropertyValues(
                        "queuekit.queues.orders.payload-type=" + Order.class.getName(),
                        "queuekit.queues.orders.key-prefix=" + Contexts.unique("clash"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("orders")).isInstanceOf(Orders.class);
                    assertThat(context.getBean(Orders.class).queue).isSameAs(context.getBean("ordersQueue"));
                });
    }
}
