package io.queuekit.tck;

import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counts what each queue reports, by queue name: what a closed queue settled can no longer be
 * asked of the queue, but its reports remain.
 */
final class RecordingMetrics implements QueueMetrics {
    private final Map<String, Counts> byName = new ConcurrentHashMap<>();

    /** One queue's reports so far. */
    static final class Counts implements Observer {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong acked = new AtomicLong();
        final AtomicLong retried = new AtomicLong();
        final AtomicLong redelivered = new AtomicLong();
        final AtomicLong deadLettered = new AtomicLong();

        @Override
        public void sent(int count) {
            sent.addAndGet(count);
        }

        @Override
        public void acked() {
            acked.incrementAndGet();
        }

        @Override
        public void retried() {
            retried.incrementAndGet();
        }

        @Override
        public void redelivered(long count) {
            redelivered.addAndGet(count);
        }

        @Override
        public void deadLettered() {
            deadLettered.incrementAndGet();
        }

        @Override
        public String toString() {
            return "sent " + sent + ", acked " + acked + ", retried " + retried + ", redelivered " + redelivered
                    + ", dead-lettered " + deadLettered;
        }
    }

    @Override
    public Observer observe(String name, String transport, String namespace, Supplier<QueueStats> stats) {
        return of(name);
    }

    Counts of(String name) {
        return byName.computeIfAbsent(name, n -> new Counts());
    }
}
