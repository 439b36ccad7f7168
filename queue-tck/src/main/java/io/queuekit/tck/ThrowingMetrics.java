package io.queuekit.tck;

import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Metrics whose observer throws on every delivery and handler report, for a transport's own test
 * that an observer that fails stops no delivery (an observer must not throw; one that does is
 * logged, and delivery goes on).
 */
public final class ThrowingMetrics implements QueueMetrics {

    @Override
    public Observer observe(String name, String transport, String namespace, Supplier<QueueStats> stats) {
        return new Observer() {
            @Override
            public void delivered(Duration latency) {
                throw new IllegalStateException("observer failure: delivered");
            }

            @Override
            public void handled(Duration time, boolean failed) {
                throw new IllegalStateException("observer failure: handled");
            }
        };
    }
}
