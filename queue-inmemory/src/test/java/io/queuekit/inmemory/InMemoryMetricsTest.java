package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class InMemoryMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualClock clock = new ManualClock();

    private double count(String meter) {
        return registry.get(meter).tag("queue", "orders").tag("transport", "in-memory").counter().count();
    }

    @Test
    void queueEvents_areRecorded_taggedByQueue() throws Exception {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("orders").clock(clock)
                .visibilityTimeout(Duration.ofSeconds(10)).metrics(MicrometerQueueMetrics.of(registry)).build()) {
            q.sendAll(List.of("a", "b", "c", "d"));
            clock.advance(Duration.ofMillis(250));
            q.poll().ack();
            q.poll().retry(Duration.ZERO);
            q.poll().deadLetter("bad");
            q.poll(); // never settled: its lease expires
            clock.advance(Duration.ofSeconds(11));
            assertThat(q.stats().ready()).isEqualTo(2);

            assertThat(count("queuekit.sent")).isEqualTo(4);
            assertThat(count("queuekit.delivered")).isEqualTo(4);
            assertThat(count("queuekit.acked")).isEqualTo(1);
            assertThat(count("queuekit.retried")).isEqualTo(1);
            assertThat(count("queuekit.dead.lettered")).isEqualTo(1);
            assertThat(count("queuekit.redelivered")).isEqualTo(1);
            assertThat(registry.get("queuekit.latency").timer().max(TimeUnit.MILLISECONDS)).isEqualTo(250);
            assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(2);
            assertThat(registry.get("queuekit.dead").gauge().value()).isEqualTo(1);
        }
    }

    @Test
    void consumers_timeTheHandler_bySuccessAndFailure() {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("orders")
                .metrics(MicrometerQueueMetrics.of(registry)).build()) {
            q.sendAll(List.of("ok", "fail"));
            try (Subscription s = q.consume(d -> {
                if (d.payload().equals("fail")) {
                    throw new IllegalStateException("boom");
                }
            }, ConsumeOptions.builder().backoff(Duration.ofHours(1), Duration.ofHours(1)).build())) {
                await().atMost(Duration.ofSeconds(10)).until(() -> registry.find("queuekit.handler")
                        .tag("outcome", "failure").timers().stream().anyMatch(t -> t.count() == 1));
            }
            assertThat(registry.get("queuekit.handler").tag("outcome", "success").timer().count()).isEqualTo(1);
            assertThat(count("queuekit.retried")).isEqualTo(1);
        }
    }

    @Test
    void broadcasts_countPublishedAndDelivered() {
        try (InMemoryBroadcaster<String> b = InMemoryBroadcaster.<String>builder("orders")
                .metrics(MicrometerQueueMetrics.of(registry)).build();
                Subscription s = b.subscribe(m -> { })) {
            b.publish("x");
            b.publish("y");
            await().atMost(Duration.ofSeconds(10)).until(() -> count("queuekit.delivered") == 2);
            assertThat(count("queuekit.sent")).isEqualTo(2);
        }
    }

    @Test
    void withoutMetrics_nothingIsRegistered() throws Exception {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.create("orders")) {
            q.send("x");
            Delivery<String> d = q.poll(1, TimeUnit.SECONDS);
            d.ack();
        }
        assertThat(registry.getMeters()).isEmpty();
    }
}
