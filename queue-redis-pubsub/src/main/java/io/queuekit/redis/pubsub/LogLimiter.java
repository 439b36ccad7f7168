package io.queuekit.redis.pubsub;

import java.util.concurrent.TimeUnit;

/**
 * Lets one log line through per interval and counts the ones held back, so that a listener failing
 * on every message of a busy channel cannot flood the log.
 */
final class LogLimiter {
    private final long intervalNanos;
    private boolean started;
    private long nextAllowedNanos;
    private long suppressed;

    LogLimiter(long interval, TimeUnit unit) {
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Holds back every event for one interval from now, as if one had just been logged. */
    synchronized void holdOff() {
        started = true;
        nextAllowedNanos = System.nanoTime() + intervalNanos;
        suppressed = 0;
    }

    /**
     * Returns -1 if this event should not be logged, otherwise how many events were held back
     * since the last one that was.
     */
    synchronized long tryAcquire() {
        long now = System.nanoTime();
        if (started && now - nextAllowedNanos < 0) {
            suppressed++;
            return -1;
        }
        started = true;
        nextAllowedNanos = now + intervalNanos;
        long held = suppressed;
        suppressed = 0;
        return held;
    }
}
