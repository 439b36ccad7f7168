package io.queuekit.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MicrometerQueueMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private io.micrometer.core.instrument.search.RequiredSearch orders(String meter) {
        return registry.get(meter).tag("queue", "orders");
    }

    @Test
    void events_areCountedPerQueue() {
        QueueMetrics.Observer orders =
                MicrometerQueueMetrics.of(registry).observe("orders", "redis-list", "queuekit", null);
        QueueMetrics.Observer mails =
                MicrometerQueueMetrics.of(registry).observe("mails", "redis-list", "queuekit", null);
        orders.sent(3);
        orders.delivered(Duration.ofMillis(5));
        orders.acked();
        orders.retried();
        orders.redelivered(2);
        orders.deadLettered();
        orders.handled(Duration.ofMillis(7), true);
        mails.sent(1);

        assertThat(registry.get("queuekit.sent")
                        .tag("queue", "orders")
                        .counter()
                        .count())
                .isEqualTo(3);
        assertThat(registry.get("queuekit.sent").tag("queue", "mails").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.delivered")
                        .tag("queue", "orders")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(orders("queuekit.acked").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.retried").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.redelivered").counter().count()).isEqualTo(2);
        assertThat(orders("queuekit.dead.lettered").counter().count()).isEqualTo(1);
        assertThat(orders("queuekit.latency").timer().totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
                .isEqualTo(5);
        assertThat(orders("queuekit.handler").tag("outcome", "failure").timer().count())
                .isEqualTo(1);
        assertThat(orders("queuekit.handler").tag("outcome", "success").timer().count())
                .isZero();
    }

    @Test
    void subscriptionEvents_areRecordedPerBroadcaster_andGoWithIt() {
        QueueMetrics.Observer prices =
                MicrometerQueueMetrics.of(registry).observe("prices", "redis-pubsub", "queuekit", null);
        QueueMetrics.Observer news =
                MicrometerQueueMetrics.of(registry).observe("news", "redis-pubsub", "queuekit", null);
        prices.gap(Duration.ofMillis(150));
        prices.reconnected();
        prices.gap(Duration.ofMillis(50));
        prices.reconnected();
        prices.decodeFailed();
        prices.gap(Duration.ofMillis(-5)); // a clock set back: no negative time
        news.decodeFailed();

        var gap = registry.get("queuekit.gap")
                .tag("queue", "prices")
                .tag("transport", "redis-pubsub")
                .tag("namespace", "queuekit")
                .timer();
        assertThat(gap.count()).isEqualTo(3);
        assertThat(gap.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(200);
        assertThat(gap.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(150);
        assertThat(registry.get("queuekit.reconnected")
                        .tag("queue", "prices")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("queuekit.decode.failed")
                        .tag("queue", "prices")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.decode.failed")
                        .tag("queue", "news")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.reconnected")
                        .tag("queue", "news")
                        .counter()
                        .count())
                .isZero();

        prices.close();
        news.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void queues_haveNoSubscriptionMeters() {
        QueueMetrics.Observer orders = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-list", "queuekit", () -> new QueueStats(0, 0, 0, 0));
        orders.gap(Duration.ofSeconds(1));
        orders.reconnected();
        orders.decodeFailed();

        assertThat(registry.find("queuekit.gap").meters()).isEmpty();
        assertThat(registry.find("queuekit.reconnected").meters()).isEmpty();
        assertThat(registry.find("queuekit.decode.failed").meters()).isEmpty();
        orders.close();
    }

    @Test
    void gauges_readStatsAtMostOncePerSecond() {
        AtomicInteger reads = new AtomicInteger();
        MicrometerQueueMetrics.of(registry).observe("orders", "in-memory", "queuekit", () -> {
            reads.incrementAndGet();
            return new QueueStats(4, 3, 2, 1);
        });
        assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(4);
        assertThat(registry.get("queuekit.in.flight").gauge().value()).isEqualTo(3);
        assertThat(registry.get("queuekit.delayed").gauge().value()).isEqualTo(2);
        assertThat(registry.get("queuekit.dead").gauge().value()).isEqualTo(1);
        assertThat(registry.get("queuekit.paused").gauge().value()).isZero();
        assertThat(reads).hasValue(1);
    }

    @Test
    void pausedGauge_isOne_whileTheQueueIsPaused() {
        MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-list", "queuekit", () -> new QueueStats(4, 0, 0, 0, true));
        assertThat(registry.get("queuekit.paused")
                        .tag("queue", "orders")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(4);
    }

    @Test
    void gauges_keepReadingTheQueue_afterAGarbageCollection() throws Exception {
        MicrometerQueueMetrics.of(registry)
                .observe("orders", "in-memory", "queuekit", () -> new QueueStats(4, 3, 2, 1));
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
        MicrometerQueueMetrics.of(registry).observe("orders", "redis-list", "queuekit", () -> {
            throw new IllegalStateException("redis down");
        });
        assertThat(registry.get("queuekit.ready").gauge().value()).isNaN();
    }

    @Test
    void queuesOfOneName_underDifferentPrefixes_areCountedApart_eachWithItsGauges() {
        QueueMetrics.Observer a = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-list", "shop-a", () -> new QueueStats(1, 0, 0, 0));
        QueueMetrics.Observer b = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-list", "shop-b", () -> new QueueStats(2, 0, 0, 0));
        a.sent(1);
        b.sent(5);

        assertThat(registry.get("queuekit.sent")
                        .tag("namespace", "shop-a")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.sent")
                        .tag("namespace", "shop-b")
                        .counter()
                        .count())
                .isEqualTo(5);
        assertThat(registry.get("queuekit.ready")
                        .tag("namespace", "shop-a")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("queuekit.ready")
                        .tag("namespace", "shop-b")
                        .gauge()
                        .value())
                .isEqualTo(2);
    }

    @Test
    void aQueuesMeters_goWhenItsLastObjectCloses_andARebuiltQueueStartsAfresh() {
        QueueMetrics.Observer first = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-zset", "queuekit", () -> new QueueStats(7, 0, 0, 0));
        QueueMetrics.Observer second = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-zset", "queuekit", () -> new QueueStats(7, 0, 0, 0));
        first.sent(2);

        first.close();
        first.close();
        assertThat(registry.get("queuekit.ready").gauge().value())
                .as("the other object still reads")
                .isEqualTo(7);
        second.close();
        assertThat(registry.find("queuekit.ready").gauges()).isEmpty();
        assertThat(registry.find("queuekit.sent").counters()).isEmpty();

        QueueMetrics.Observer rebuilt = MicrometerQueueMetrics.of(registry)
                .observe("orders", "redis-zset", "queuekit", () -> new QueueStats(3, 0, 0, 0));
        assertThat(registry.get("queuekit.ready").gauge().value()).isEqualTo(3);
        assertThat(registry.get("queuekit.sent").counter().count()).isZero();
        rebuilt.close();
    }

    @Test
    void aRegistry_andAQueueNobodyClosed_canBeCollected() throws Exception {
        WeakReference<SimpleMeterRegistry> registryRef = new WeakReference<>(new SimpleMeterRegistry());
        WeakReference<byte[]> stateRef = new WeakReference<>(new byte[1 << 20]);
        observeAndForget(registryRef.get(), stateRef.get());

        for (int i = 0; i < 100 && (registryRef.get() != null || stateRef.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }

        assertThat(registryRef.get()).as("the registry").isNull();
        assertThat(stateRef.get()).as("what the queue's counts were read from").isNull();
    }

    /** A queue that reports to {@code r}, reading its counts from {@code state}, and is never closed. */
    private static void observeAndForget(SimpleMeterRegistry r, byte[] state) {
        MicrometerQueueMetrics.of(r)
                .observe("orders", "in-memory", "jvm-1", () -> new QueueStats(state.length, 0, 0, 0));
        assertThat(r.get("queuekit.ready").gauge().value()).isEqualTo(state.length);
    }

    @Test
    void shortLivedQueues_leaveNoMetersBehind() {
        for (int i = 0; i < 100; i++) {
            QueueMetrics.Observer o = MicrometerQueueMetrics.of(registry)
                    .observe("q" + i, "in-memory", "jvm", () -> new QueueStats(0, 0, 0, 0));
            o.acked();
            o.close();
        }
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void aFailingRead_isTriedAtMostOncePerSecond_andNoScrapeWaitsLong() {
        AtomicInteger reads = new AtomicInteger();
        MicrometerQueueMetrics.of(registry).observe("orders", "redis-list", "queuekit", () -> {
            reads.incrementAndGet();
            throw new IllegalStateException("redis down");
        });
        AtomicInteger slowReads = new AtomicInteger();
        MicrometerQueueMetrics.of(registry).observe("slow", "redis-list", "queuekit", () -> {
            slowReads.incrementAndGet();
            try {
                Thread.sleep(3_000); // a socket timeout during an outage
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new QueueStats(1, 1, 1, 1);
        });

        long start = System.nanoTime();
        for (int scrape = 0; scrape < 10; scrape++) {
            for (String gauge : List.of("queuekit.ready", "queuekit.in.flight", "queuekit.delayed", "queuekit.dead")) {
                assertThat(registry.get(gauge).tag("queue", "orders").gauge().value())
                        .isNaN();
                assertThat(registry.get(gauge).tag("queue", "slow").gauge().value())
                        .isNaN();
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took)
                .as("ten scrapes of both queues' gauges during an outage")
                .isLessThan(Duration.ofSeconds(2));
        assertThat(reads).as("failed reads are remembered for a second").hasValueLessThanOrEqualTo(2);
        assertThat(slowReads).as("one read at a time").hasValue(1);
    }
}
