package io.queuekit.internal;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * A failure that may repeat on every message: the first is logged with its stack trace, later ones
 * at most once per period, as one line with how many were not logged.
 */
final class RateLimitedLog {
    private final System.Logger log;
    private final long periodNanos;
    private long lastNanos;
    private long held = -1;

    RateLimitedLog(System.Logger log, int periodSeconds) {
        this.log = log;
        this.periodNanos = TimeUnit.SECONDS.toNanos(periodSeconds);
    }

    void log(Level level, String message, Throwable t) {
        long now = System.nanoTime();
        long skipped;
        synchronized (this) {
            if (held >= 0 && now - lastNanos < periodNanos) {
                held++;
                return;
            }
            skipped = held;
            held = 0;
            lastNanos = now;
        }
        if (skipped < 0) {
            log.log(level, message, t);
        } else {
            log.log(level, message + ": " + t + (skipped > 0 ? " (" + skipped + " more not logged)" : ""));
        }
    }
}
