package io.queuekit.redis.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class RedisListQueueMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final String name = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
    private final RedisClient client;

    RedisListQueueMetricsTest(RedisClient client) {
        this.client = client;
    }

    private double count(String meter) {
        return registry.get(meter)
                .tag("queue", name)
                .tag("transport", "redis-list")
                .counter()
                .count();
    }

    @ParameterizedTest
    @EnumSource(Semantics.Guarantee.class)
    void settlements_areRecorded_inBothModes(Semantics.Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .guarantee(guarantee)
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
            q.sendAll(List.of("ack", "retry", "dead"));
            q.poll(5, TimeUnit.SECONDS).ack();
            q.poll(5, TimeUnit.SECONDS).retry(Duration.ofHours(1));
            q.poll(5, TimeUnit.SECONDS).deadLetter("bad");

            assertThat(count("queuekit.sent")).isEqualTo(3);
            assertThat(count("queuekit.delivered")).isEqualTo(3);
            assertThat(count("queuekit.acked")).isEqualTo(1);
            assertThat(count("queuekit.retried")).isEqualTo(1);
            assertThat(count("queuekit.dead.lettered")).isEqualTo(1);
            assertThat(registry.get("queuekit.latency")
                            .tag("queue", name)
                            .timer()
                            .count())
                    .isEqualTo(3);
            assertThat(registry.get("queuekit.delayed")
                            .tag("queue", name)
                            .gauge()
                            .value())
                    .isEqualTo(1);
            assertThat(registry.get("queuekit.dead").tag("queue", name).gauge().value())
                    .isEqualTo(1);
        }
    }

    @Test
    void inFlightGauge_countsAMessageTakenBeforeAnyUpkeep_asStatsDoes() throws Exception {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
            q.sendAll(List.of("taken", "waiting"));
            assertThat(q.poll()).isNotNull();

            assertThat(q.stats().inFlight()).isEqualTo(1);
            assertThat(registry.get("queuekit.in.flight")
                            .tag("queue", name)
                            .gauge()
                            .value())
                    .isEqualTo(1);
            assertThat(registry.get("queuekit.ready").tag("queue", name).gauge().value())
                    .isEqualTo(1);
        }
    }

    @Test
    void leaseExpiry_countsAsRedelivered_andConsumersTimeTheHandler() {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .visibilityTimeout(Duration.ofMillis(200))
                .blockTimeout(Duration.ofMillis(100))
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
