package io.queuekit.redis.pubsub;

import io.queuekit.internal.RateLimitedLog;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread of a broadcaster, {@code queuekit-<channel>-keepalive}, that runs its
 * subscriptions' keep-alive checks. It is started by the first subscription, ends about a second
 * after the last subscription closed, and stops when the broadcaster closes. Keep-alives thus
 * never wait for a listener, however long it runs.
 */
final class Heartbeat {
    private static final Logger log = LoggerFactory.getLogger(RedisBroadcaster.class);

    private static final long IDLE_SECONDS = 1;

    private final String threadName;
    private ScheduledThreadPoolExecutor executor; // guarded by this
    private Thread thread; // the latest the executor started; guarded by this
    private boolean closed; // guarded by this

    Heartbeat(String threadName) {
        this.threadName = threadName;
    }

    /**
     * Runs {@code check} every {@code periodNanos} until the returned future is cancelled or this
     * heartbeat is closed; returns null once closed. A check that throws is logged (rate-limited) and
     * runs again.
     */
    synchronized Future<?> every(long periodNanos, Runnable check) {
        if (closed) {
            return null;
        }
        if (executor == null) {
            executor = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true); // a forgotten broadcaster must not keep the JVM alive
                synchronized (this) {
                    thread = t;
                }
                return t;
            });
            executor.setRemoveOnCancelPolicy(true);
            // no subscription left to check: the thread ends, and the next subscription starts another
            executor.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
            executor.allowCoreThreadTimeOut(true);
        }
        RateLimitedLog failures = new RateLimitedLog(log, Duration.ofSeconds(60));
        Runnable guarded = () -> {
            try {
                check.run();
                failures.recovered("{}: keep-alive checks work again", threadName);
            } catch (Throwable t) {
                // a task that throws is never run again by the executor: keep it alive
                failures.failed(threadName + ": a keep-alive check failed", t);
            }
        };
        return executor.scheduleWithFixedDelay(guarded, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Stops the thread and waits for it to end, until {@code deadlineNanos} at most. Idempotent.
     * The executor reports termination from its last thread before that thread has ended, so the
     * thread itself is joined too: once this returns in time, no keep-alive thread is left.
     */
    void close(long deadlineNanos) {
        ScheduledThreadPoolExecutor e;
        Thread t;
        synchronized (this) {
            closed = true;
            e = executor;
            t = thread;
        }
        if (e == null) {
            return;
        }
        e.shutdownNow();
        try {
            e.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            long left = deadlineNanos - System.nanoTime();
            if (t != null && t != Thread.currentThread() && left > 0) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
