package io.queuekit.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Keeps a failure that repeats from flooding the log. Hold one per queue (or subscription) and
 * kind of failure, shared by every thread that may meet it: a Redis outage seen by all the workers
 * of a queue's consumers is then one run of failures, not one per worker. Thread-safe.
 *
 * <p>{@link #failed} is for an operation that is retried until it works (a fetch, a lease renewal,
 * a settle). At most one line per period is let through, at WARN: the first failure of a run with
 * its stack trace, later ones as one line without it that says how many were left out since the
 * previous line (each one left out is logged at DEBUG). Where the operation has a natural point of
 * success, {@link #recovered} ends the run with one INFO line saying how many attempts failed and
 * for how long, if the run showed at WARN; a failure after that starts a new run, but is let
 * through only once a period has passed since that line, so an operation that works and fails by
 * turns still logs little. A run also ends, without a line, once a whole period passes without a
 * failure, so failures far apart (a handler throwing an {@link Error} now and then) each keep
 * their stack trace.
 *
 * <p>{@link #tryAcquire} and {@link #holdOff} are for lines the caller writes itself, about events
 * that are not the failures of one retried operation (messages dropped for a slow listener, a
 * listener that throws on message after message): at most one per period, with the count of those
 * held back. Use an instance one way or the other, not both.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final long periodNanos;
    private final LongSupplier nanoTime;
    private final Object lock = new Object();

    /** A run of failures is under way; read without the lock by {@link #recovered}, written under it. */
    private volatile boolean failing;
    // guarded by lock
    private boolean lineLogged;
    private long lastLineNanos;
    private long heldBack;
    private boolean runShown;
    private long runStartNanos;
    private long lastFailureNanos;
    private long runFailures;

    /** Lets through at most one line per {@code period} to {@code log}. */
    public RateLimitedLog(Logger log, Duration period) {
        this(log, period, System::nanoTime);
    }

    /** With the time source of {@code nanoTime}, for tests. */
    RateLimitedLog(Logger log, Duration period, LongSupplier nanoTime) {
        this.log = Objects.requireNonNull(log, "log");
        this.periodNanos = Checks.positive(period, "period").toNanos();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * One failure of a retried operation: logged at WARN if a period has passed since the last
     * line, with the stack trace of {@code t} if it is the first failure of a run, or else as
     * {@code message: t} and how many were left out; otherwise counted and logged at DEBUG.
     *
     * @param message what failed, and what happens next ("queuekit orders: fetch failed, retrying")
     */
    public void failed(String message, Throwable t) {
        long now = nanoTime.getAsLong();
        boolean first = false;
        long held;
        synchronized (lock) {
            if (failing && now - lastFailureNanos >= periodNanos) {
                failing = false; // a whole period without a failure: this one starts a new run
            }
            lastFailureNanos = now;
            if (!failing) {
                failing = true;
                first = true;
                runShown = false;
                runStartNanos = now;
                runFailures = 0;
            }
            runFailures++;
            held = pass(now);
            if (held >= 0) {
                runShown = true;
            }
        }
        if (held < 0) {
            if (log.isDebugEnabled()) {
                log.debug(message + ": " + t);
            }
        } else if (first) {
            log.warn(message + more(held), t);
        } else {
            log.warn(message + ": " + t + more(held));
        }
    }

    /**
     * The operation worked: ends a run of failures. If the run showed at WARN, logs at INFO
     * {@code format} (an SLF4J pattern with one {@code {}}, for {@code arg}) followed by how many
     * attempts failed and for how long. Without a run, costs one volatile read, so it can be
     * called on every success.
     */
    public void recovered(String format, Object arg) {
        if (!failing) {
            return;
        }
        long failures;
        Duration lasted;
        synchronized (lock) {
            if (!failing) {
                return;
            }
            failing = false;
            if (!runShown) {
                return; // its failures are counted in the next line let through
            }
            long now = nanoTime.getAsLong();
            failures = runFailures;
            lasted = Duration.ofNanos(now - runStartNanos);
            lastLineNanos = now;
        }
        if (log.isInfoEnabled()) {
            log.info(format + " after {} failed attempt(s) over {}", arg, failures, lasted);
        }
    }

    /**
     * For a line the caller writes: returns -1 if it falls within a period of the last one let
     * through (it is then counted as held back), or else how many were held back since that one.
     */
    public long tryAcquire() {
        long now = nanoTime.getAsLong();
        synchronized (lock) {
            return pass(now);
        }
    }

    /** Holds back the lines of {@link #tryAcquire} for a period from now, as if one had just been let through. */
    public void holdOff() {
        long now = nanoTime.getAsLong();
        synchronized (lock) {
            lineLogged = true;
            lastLineNanos = now;
            heldBack = 0;
        }
    }

    /** How a let-through line reports what was held back: {@code " (3 more since the last report, not logged)"}. */
    public static String more(long held) {
        return held <= 0 ? "" : " (" + held + " more since the last report, not logged)";
    }

    /** Called with the lock held: -1 to hold a line back, else how many were held back before it. */
    private long pass(long now) {
        if (lineLogged && now - lastLineNanos < periodNanos) {
            heldBack++;
            return -1;
        }
        lineLogged = true;
        lastLineNanos = now;
        long held = heldBack;
        heldBack = 0;
        return held;
    }
}
