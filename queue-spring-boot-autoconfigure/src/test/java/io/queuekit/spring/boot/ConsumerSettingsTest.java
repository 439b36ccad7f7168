package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@code queuekit.queues.<name>.consumer.*} reaches the listeners' consumers. */
@RedisServerTest
@Timeout(60)
class ConsumerSettingsTest {
    private final RedisServer server;

    ConsumerSettingsTest(RedisServer server) {
        this.server = server;
    }

    /** Holds every message until released, noting each delivery's attempt. */
    static class SlowHandler {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        @QueueListener(queue = "slow", concurrency = "2")
        void handle(Delivery<String> delivery) throws InterruptedException {
            attempts.add(delivery.attempt());
            release.await(20, TimeUnit.SECONDS);
            delivery.ack();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(SlowHandler.class)
    static class App {
        @Autowired
        MessageQueue<String> slow;
    }

    @Test
    void aLeaseRenewalLimitOfZero_letsTheLeaseOfARunningHandlerLapse() {
        Contexts.on(server)
                .withUserConfiguration(App.class)
                .withPropertyValues(
                        "queuekit.queues.slow.key-prefix=" + Contexts.unique("lease"),
                        "queuekit.queues.slow.visibility-timeout=200ms",
                        "queuekit.queues.slow.consumer.lease-renewal-limit=0s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SlowHandler handler = context.getBean(SlowHandler.class);
                    try {
                        context.getBean(App.class).slow.send("o-1");
                        // not renewed, the lease lapses and the other worker gets the message again
                        await().atMost(Duration.ofSeconds(15))
                                .untilAsserted(
                                        () -> assertThat(handler.attempts).containsExactly(1, 2));
                    } finally {
                        handler.release.countDown();
                    }
                });
    }

    @Test
    void theConsumerSettings_areTheListenersOptions_onRedisAndInMemory() {
        for (String transport : List.of("redis", "in-memory")) {
            Contexts.on(server)
                    .withPropertyValues(
                            "queuekit.transport=" + transport,
                            "queuekit.queues.orders.consumer.batch-size=7",
                            "queuekit.queues.orders.consumer.poll-timeout=250ms",
                            "queuekit.queues.orders.consumer.lease-renewal-limit=2m")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        QueueDefinitions definitions = context.getBean(QueueDefinitions.class);
                        ConsumeOptions options = QueueFactory.consumeOptions(definitions.queues.get("orders"))
                                .build();
                        assertThat(options.batchSize()).isEqualTo(7);
                        assertThat(options.adaptiveBatch()).isFalse();
                        assertThat(options.pollTimeout()).isEqualTo(Duration.ofMillis(250));
                        assertThat(options.leaseRenewalLimit()).isEqualTo(Duration.ofMinutes(2));
                    });
        }
    }
}
