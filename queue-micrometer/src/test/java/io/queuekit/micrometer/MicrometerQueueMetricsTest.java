package io.queuekit.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MicrometerQueueMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private io.micrometer.core.instrument.search.RequiredSearch orders(String meter) {
        return registry.get(meter).tag("queue", "orders");
    }

    @Test
    void events_areCountedPerQueue() {
        QueueMetrics.Observer orders = MicrometerQueueMetrics.of(registry).observe("orders", "redis-list", null);
        QueueMetrics.Observer mails = MicrometerQueueMetrics.of(registry).observe("mails", "redis-list", null);
        orders.sent(3);
        orders.delivered(Duration.ofMillis(5));
        orders.acked();
        orders.retried();
        orders.redelivered(2);
        orders.deadLettered();
        orders.handled(Duration.ofMillis(7), true);
        mails.sent(1);

        assertThat(registry.get("queuekit.sent").tag("queue", "orders").counter().count()).isEqualTo(3);
        assertThat(registry.get("queuekit.sent").tag("queue", "mails").counter().count()).isEqualTo(1);
        assertThat(registry.get("queuekit.delivered").tag("queue", "orders").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.acked").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.retried").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.redelivered").counter().count()).isEqualTo(2);
        assertThat(orders("queuekit.dead.lettered").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.latency").timer().totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
                .isEqualTo(5);
        assertThat(orders("queuekit.handler").tag("outcome", "failure").timer().count()).isEqualTo(1);
        assertThat(orders("queuekit.handler").tag("outcome", "success").timer().count()).isZero();
    }

    @Test
    void gauges_readStatsAtMostOncePerSecond() {
        AtomicInteger reads = new AtomicInteger();
        MicrometerQueueMetrics.of(registry).observe("orders", "in-memory", () -> {
            reads.incrementAndGet();
            return new QueueStats(4, 3, 2, 1);
        });
        assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(4);
        assertThat(registry.get("queuekit.in.flight").gauge().value()).isEqualTo(3);
        assertThat(registry.get("queuekit.delayed").gauge().value()).isEqualTo(2);
        assertThat(registry.get("queuekit.dead").gauge().value()).isEqualTo(1);
        assertThat(reads).hasValue(1);
    }

    @Test
    void gauges_keepReadingTheQueue_afterAGarbageCollection() throws Exception {
        MicrometerQueueMetrics.of(registry).observe("orders", "in-memory", () -> new QueueStats(4, 3, 2, 1));
        // the queue holds its observer and the registry its gauges; nothing else holds the stats cache
        WeakReference<Object> canary = new WeakReference<>(new Object());
        for (int i = 0; i < 50 && canary.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(canary.get()).as("a garbage collection ran").isNull();
        System.gc();

        assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(4);
        assertThat(registry.get("queuekit.in.flight").gauge().value()).isEqualTo(3);
        assertThat(registry.get("queuekit.delayed").gauge().value()).isEqualTo(2);
        assertThat(registry.get("queuekit.dead").gauge().value()).isEqualTo(1);
    }

    @Test
    void gauge_showsNaN_whenStatsCannotBeRead() {
        MicrometerQueueMetrics.of(registry).observe("orders", "redis-list", () -> {
            throw new IllegalStateException("redis down");
        });
        assertThat(registry.get("queuekit.ready").gauge().value()).isNaN();
    }
}
