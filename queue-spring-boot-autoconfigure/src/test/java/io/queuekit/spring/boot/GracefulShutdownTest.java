package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.jackson3.Jackson3Codec;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.testing.RedisClients;
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
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import redis.clients.jedis.RedisClient;

@RedisServerTest
@Timeout(60)
class GracefulShutdownTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    GracefulShutdownTest(RedisServer server) {
        this.server = server;
    }

    /** A handler that holds its message until the test lets it go. */
    static class SlowHandler implements ApplicationListener<ContextClosedEvent> {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch closing = new CountDownLatch(1);
        final List<String> finished = new CopyOnWriteArrayList<>();

        @Autowired
        MessageQueue<Order> orders;

        @QueueListener(queue = "orders")
        void handle(Order order) throws InterruptedException {
            started.countDown();
            if (release.await(30, TimeUnit.SECONDS)) {
                finished.add(order.id());
            }
        }

        @Override
        public void onApplicationEvent(ContextClosedEvent event) {
            closing.countDown();
        }
    }

    @Test
    void closingTheContext_whileAHandlerRuns_letsItFinish_andAcksItsMessage() throws Exception {
        String prefix = Contexts.unique("shutdown");
        Order order = new Order("o-slow", 500, Instant.parse("2026-12-01T10:00:00Z"));
        SlowHandler handler = new SlowHandler();
        Contexts.on(server)
                .withBean(SlowHandler.class, () -> handler)
                .withPropertyValues(
                        "queuekit.queues.orders.key-prefix=" + prefix,
                        "queuekit.queues.orders.payload-type=" + Order.class.getName())
                .run(context -> {
                    handler.orders.send(order);
                    assertThat(handler.started.await(20, TimeUnit.SECONDS)).isTrue();

                    Thread closer = new Thread(context::close, "test-closer");
                    closer.start();
                    assertThat(handler.closing.await(20, TimeUnit.SECONDS)).isTrue();
                    assertThat(handler.finished).isEmpty(); // the close began while the handler ran
                    handler.release.countDown();
                    closer.join(TimeUnit.SECONDS.toMillis(20));
                    assertThat(closer.isAlive()).isFalse();
                });

        assertThat(handler.finished).containsExactly("o-slow");
        try (RedisClient client = RedisClients.create(server);
                RedisListQueue<Order> orders = RedisListQueue.builder(client, "orders", Jackson3Codec.of(Order.class))
                        .keyPrefix(prefix)
                        .build()) {
            // acked before the client closed: nothing in flight to come back after its lease
            await().atMost(WAIT).untilAsserted(() -> assertThat(orders.stats()).isEqualTo(new QueueStats(0, 0, 0, 0)));
        }
    }
}
