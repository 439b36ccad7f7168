package io.queuekit.redis.zset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class RedisDelayQueueMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final String name = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
    private final RedisClient client;

    RedisDelayQueueMetricsTest(RedisClient client) {
        this.client = client;
    }

    private double count(String meter) {
        return registry.get(meter)
                .tag("queue", name)
                .tag("transport", "redis-zset")
                .counter()
                .count();
    }

    @Test
    void everyEvent_isRecorded_taggedByQueue() throws Exception {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                .visibilityTimeout(Duration.ofMillis(300))
                .maxAttempts(1)
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
            q.sendAll(List.of("ack", "retry", "dead", "expire"));
            q.poll(5, TimeUnit.SECONDS).ack();
            q.poll(5, TimeUnit.SECONDS).retry(Duration.ofHours(1));
            q.poll(5, TimeUnit.SECONDS).deadLetter("bad");
            Delivery<String> abandoned = q.poll(5, TimeUnit.SECONDS);
            assertThat(abandoned.payload()).isEqualTo("expire");
            // its lease expires at the first attempt of one: the next claim dead-letters it
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                q.poll();
                return count("queuekit.dead.lettered") == 2;
            });

            assertThat(count("queuekit.sent")).isEqualTo(4);
            assertThat(count("queuekit.delivered")).isEqualTo(4);
            assertThat(count("queuekit.acked")).isEqualTo(1);
            assertThat(count("queuekit.retried")).isEqualTo(1);
            assertThat(registry.get("queuekit.latency")
                            .tag("queue", name)
                            .timer()
                            .count())
                    .isEqualTo(4);
            assertThat(registry.get("queuekit.delayed")
                            .tag("queue", name)
                            .gauge()
                            .value())
                    .isEqualTo(1);
        }
    }

    @Test
    void leaseExpiry_countsAsRedelivered_andConsumersTimeTheHandler() {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                .visibilityTimeout(Duration.ofMillis(300))
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
            q.send("forgotten");
            assertThat(q.poll()).isNotNull();
            try (Subscription s = q.consume(d -> {}, ConsumeOptions.defaults())) {
                await().atMost(Duration.ofSeconds(10)).until(() -> count("queuekit.acked") == 1);
            }
            assertThat(count("queuekit.redelivered")).isEqualTo(1);
            assertThat(registry.get("queuekit.handler")
                            .tag("outcome", "success")
                            .timer()
                            .count())
                    .isEqualTo(1);
        }
    }
}
