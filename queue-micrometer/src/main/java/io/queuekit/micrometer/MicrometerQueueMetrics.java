package io.queuekit.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Records queuekit metrics in a Micrometer {@link MeterRegistry}. Pass it to a transport's builder
 * ({@code .metrics(MicrometerQueueMetrics.of(registry))}); every meter is tagged with
 * {@code queue} (the queue or channel name) and {@code transport}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>queuekit.sent</td><td>counter</td><td>messages stored or published</td></tr>
 *   <tr><td>queuekit.delivered</td><td>counter</td><td>messages handed to a consumer or listener</td></tr>
 *   <tr><td>queuekit.acked, queuekit.retried, queuekit.dead.lettered</td><td>counter</td><td>settlements</td></tr>
 *   <tr><td>queuekit.redelivered</td><td>counter</td><td>messages handed out again after a lease expired</td></tr>
 *   <tr><td>queuekit.latency</td><td>timer</td><td>from first send to delivery (end to end)</td></tr>
 *   <tr><td>queuekit.handler</td><td>timer</td><td>handler or listener time, tagged {@code outcome=success|failure}</td></tr>
 *   <tr><td>queuekit.ready, queuekit.in.flight, queuekit.delayed, queuekit.dead</td><td>gauge</td><td>queue counts (queues only)</td></tr>
 * </table>
 *
 * <p>Gauges read the queue's counts at most once a second however often they are scraped, since
 * on Redis a read is a round trip. Thread-safe.
 */
public final class MicrometerQueueMetrics implements QueueMetrics {
    private static final long STATS_TTL_NANOS = Duration.ofSeconds(1).toNanos();
    private final MeterRegistry registry;

    private MicrometerQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static MicrometerQueueMetrics of(MeterRegistry registry) {
        return new MicrometerQueueMetrics(Objects.requireNonNull(registry, "registry"));
    }

    @Override
    public Observer observe(String name, String transport, Supplier<QueueStats> stats) {
        Tags tags = Tags.of("queue", name, "transport", transport);
        if (stats != null) {
            CachedStats cached = new CachedStats(stats);
            gauge("queuekit.ready", tags, cached, QueueStats::ready);
            gauge("queuekit.in.flight", tags, cached, QueueStats::inFlight);
            gauge("queuekit.delayed", tags, cached, QueueStats::delayed);
            gauge("queuekit.dead", tags, cached, QueueStats::dead);
        }
        return new MicrometerObserver(registry, tags);
    }

    private void gauge(String meter, Tags tags, CachedStats stats, ToLongFunction<QueueStats> part) {
        // held strongly: nothing else holds the cache, and a weakly held gauge reads NaN after a GC
        Gauge.builder(meter, stats, s -> s.read(part)).tags(tags).strongReference(true).register(registry);
    }

    /** Reads the counts at most once per second; a failed read shows as NaN rather than throwing. */
    private static final class CachedStats {
        private final Supplier<QueueStats> source;
        private QueueStats last;
        private long readAt;

        CachedStats(Supplier<QueueStats> source) {
            this.source = source;
        }

        synchronized double read(ToLongFunction<QueueStats> part) {
            long now = System.nanoTime();
            if (last == null || now - readAt > STATS_TTL_NANOS) {
                try {
                    last = source.get();
                    readAt = now;
                } catch (RuntimeException e) {
                    return Double.NaN;
                }
            }
            return part.applyAsLong(last);
        }
    }

    private static final class MicrometerObserver implements Observer {
        private final Counter sent, delivered, acked, retried, redelivered, deadLettered;
        private final Timer latency, handlerOk, handlerFailed;

        MicrometerObserver(MeterRegistry r, Tags tags) {
            sent = r.counter("queuekit.sent", tags);
            delivered = r.counter("queuekit.delivered", tags);
            acked = r.counter("queuekit.acked", tags);
            retried = r.counter("queuekit.retried", tags);
            redelivered = r.counter("queuekit.redelivered", tags);
            deadLettered = r.counter("queuekit.dead.lettered", tags);
            latency = r.timer("queuekit.latency", tags);
            handlerOk = r.timer("queuekit.handler", tags.and("outcome", "success"));
            handlerFailed = r.timer("queuekit.handler", tags.and("outcome", "failure"));
        }

        @Override
        public void sent(int count) {
            sent.increment(count);
        }

        @Override
        public void delivered(Duration latency) {
            delivered.increment();
            this.latency.record(latency.isNegative() ? Duration.ZERO : latency);
        }

        @Override
        public void acked() {
            acked.increment();
        }

        @Override
        public void retried() {
            retried.increment();
        }

        @Override
        public void redelivered(long count) {
            redelivered.increment(count);
        }

        @Override
        public void deadLettered() {
            deadLettered.increment();
        }

        @Override
        public void handled(Duration time, boolean failed) {
            (failed ? handlerFailed : handlerOk).record(time);
        }
    }
}
