package io.queuekit.internal;

import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * An observer that never throws: what the observer it wraps throws is logged, rate-limited, and
 * goes no further. An observer must not throw; one that does must not stop a delivery, nor turn
 * a message already published into a failed publish.
 */
public final class GuardedObserver implements QueueMetrics.Observer {
    private static final Duration LOG_PERIOD = Duration.ofSeconds(60);

    private final QueueMetrics.Observer observer;
    private final RateLimitedLog failures;
    private final String message;

    private GuardedObserver(QueueMetrics.Observer observer, Logger log, String label) {
        this.observer = observer;
        this.failures = new RateLimitedLog(log, LOG_PERIOD);
        this.message = label + ": the metrics observer threw; what it was told is lost, nothing else";
    }

    /**
     * {@code observer}, guarded; {@link QueueMetrics.Observer#NONE} as it is.
     *
     * @param label names the queue or channel in the log line ({@code "queuekit prices"})
     */
    public static QueueMetrics.Observer of(QueueMetrics.Observer observer, Logger log, String label) {
        Objects.requireNonNull(observer, "observer");
        return observer == QueueMetrics.Observer.NONE || observer instanceof GuardedObserver
                ? observer
                : new GuardedObserver(observer, log, label);
    }

    @Override
    public void sent(int count) {
        guard(() -> observer.sent(count));
    }

    @Override
    public void delivered(Duration latency) {
        guard(() -> observer.delivered(latency));
    }

    @Override
    public void acked() {
        guard(observer::acked);
    }

    @Override
    public void retried() {
        guard(observer::retried);
    }

    @Override
    public void redelivered(long count) {
        guard(() -> observer.redelivered(count));
    }

    @Override
    public void deadLettered() {
        guard(observer::deadLettered);
    }

    @Override
    public void handled(Duration time, boolean failed) {
        guard(() -> observer.handled(time, failed));
    }

    @Override
    public void gap(Duration duration) {
        guard(() -> observer.gap(duration));
    }

    @Override
    public void reconnected() {
        guard(observer::reconnected);
    }

    @Override
    public void decodeFailed() {
        guard(observer::decodeFailed);
    }

    @Override
    public void close() {
        guard(observer::close);
    }

    private void guard(Runnable call) {
        try {
            call.run();
        } catch (Throwable t) {
            failures.failed(message, t);
        }
    }
}
