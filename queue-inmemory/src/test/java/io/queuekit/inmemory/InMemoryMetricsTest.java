package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class InMemoryMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualClock clock = new ManualClock();

    private double count(String meter) {
        return registry.get(meter)
                .tag("queue", "orders")
                .tag("transport", "in-memory")
                .counter()
                .count();
    }

    @Test
    void queueEvents_areRecorded_taggedByQueue() throws Exception {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("orders")
                .clock(clock)
                .visibilityTimeout(Duration.ofSeconds(10))
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
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
            assertThat(count("queuekit.redelivered"))
                    .as("before a receive reaps the expired lease")
                    .isZero();
            assertThat(registry.get("queuekit.latency").timer().max(TimeUnit.MILLISECONDS))
                    .isEqualTo(250);
            assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(2);
            assertThat(registry.get("queuekit.dead").gauge().value()).isEqualTo(1);

            q.poll(); // reaps it, behind the retried message it hands out
            assertThat(count("queuekit.redelivered")).isEqualTo(1);
        }
    }

    @Test
    void consumers_timeTheHandler_bySuccessAndFailure() {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("orders")
                .metrics(MicrometerQueueMetrics.of(registry))
                .build()) {
            q.sendAll(List.of("ok", "fail"));
            try (Subscription s = q.consume(
                    d -> {
                        if (d.payload().equals("fail")) {
                            throw new IllegalStateException("boom");
                        }
                    },
                    ConsumeOptions.builder()
                            .backoff(Duration.ofHours(1), Duration.ofHours(1))
                            .build())) {
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> registry.find("queuekit.handler").tag("outcome", "failure").timers().stream()
                                .anyMatch(t -> t.count() == 1));
            }
            assertThat(registry.get("queuekit.handler")
                            .tag("outcome", "success")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(count("queuekit.retried")).isEqualTo(1);
        }
    }

    @Test
    void broadcasts_countPublishedAndDelivered() {
        try (InMemoryBroadcaster<String> b = InMemoryBroadcaster.<String>builder("orders")
                        .metrics(MicrometerQueueMetrics.of(registry))
                        .build();
                Subscription s = b.subscribe(m -> {})) {
            b.publish("x");
            b.publish("y");
            await().atMost(Duration.ofSeconds(10)).until(() -> count("queuekit.delivered") == 2);
            assertThat(count("queuekit.sent")).isEqualTo(2);
        }
    }

    @Test
    void broadcasts_countAnUndecodableMessage_asADecodeFailure_notAsADeliveryOrAListenerFailure() {
        Codec<String> picky = new Codec<>() {
            @Override
            public byte[] encode(String payload) {
                return Codec.utf8().encode(payload);
            }

            @Override
            public String decode(byte[] bytes) {
                String s = Codec.utf8().decode(bytes);
                if (s.startsWith("bad")) {
                    throw new IllegalStateException("cannot decode " + s);
                }
                return s;
            }
        };
        List<String> got = new CopyOnWriteArrayList<>();
        try (InMemoryBroadcaster<String> b = InMemoryBroadcaster.<String>builder("orders")
                        .codec(picky)
                        .metrics(MicrometerQueueMetrics.of(registry))
                        .build();
                Subscription s = b.subscribe(got::add)) {
            b.publishAll(List.of("bad", "good"));

            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("good"));
            assertThat(got).containsExactly("good");
            assertThat(count("queuekit.decode.failed")).isEqualTo(1);
            assertThat(count("queuekit.delivered")).isEqualTo(1);
            assertThat(registry.get("queuekit.handler")
                            .tag("outcome", "failure")
                            .timer()
                            .count())
                    .isZero();
            assertThat(b.listenerFailures())
                    .as("the getter counts it, as before")
                    .isEqualTo(1);
        }
    }

    @Test
    void broadcasts_reportAListenerThatFellBehind_asAGap_whenItTakesAMessageAgain() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> got = new CopyOnWriteArrayList<>();
        try (InMemoryBroadcaster<String> b = InMemoryBroadcaster.<String>builder("orders")
                        .inboxCapacity(1)
                        .metrics(MicrometerQueueMetrics.of(registry))
                        .build();
                Subscription s = b.subscribe(m -> {
                    got.add(m);
                    if (m.equals("held")) {
                        holding.countDown();
                        release.await(10, TimeUnit.SECONDS);
                    }
                })) {
            b.publish("held");
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(b.publishAll(List.of("queued", "dropped-1", "dropped-2")))
                    .containsExactly(1, 0, 0);
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("queued"));
            await().atMost(Duration.ofSeconds(10)).until(() -> b.publish("taken") == 1);

            var gap = registry.get("queuekit.gap")
                    .tag("queue", "orders")
                    .tag("transport", "in-memory")
                    .timer();
            assertThat(gap.count()).isEqualTo(1);
            assertThat(gap.totalTime(TimeUnit.NANOSECONDS))
                    .as("from the first message dropped to the next one taken")
                    .isPositive();
            assertThat(count("queuekit.reconnected"))
                    .as("nothing to reconnect in memory")
                    .isZero();
            assertThat(b.droppedMessages()).isEqualTo(2);
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
