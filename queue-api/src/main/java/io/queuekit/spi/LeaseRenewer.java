package io.queuekit.spi;

import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link LeaseKeeper#renewing}: one scheduled task per held delivery, renewing every third of the
 * lease so that two renewals can fail before the lease lapses. Renewal stops at the limit, so the
 * lease lapses at most one lease after it.
 */
final class LeaseRenewer implements LeaseKeeper {
    private static final System.Logger LOG = System.getLogger(LeaseRenewer.class.getName());

    private final Duration lease;
    private final long periodNanos;
    private final ScheduledThreadPoolExecutor timer;
    private final RateLimitedLog failures = new RateLimitedLog(LOG, 10);

    LeaseRenewer(String threadName, Duration lease) {
        this.lease = lease;
        this.periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), lease.toNanos() / 3);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Hold hold(Delivery<?> delivery, Duration limit) {
        if (limit.isZero()) {
            return () -> { };
        }
        Renewal r = new Renewal(delivery, System.nanoTime() + limit.toNanos());
        try {
            r.future = timer.scheduleWithFixedDelay(r, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            return () -> { };
        }
        return r;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private final class Renewal implements Runnable, Hold {
        private final Delivery<?> delivery;
        private final long untilNanos;
        volatile ScheduledFuture<?> future;
        private volatile boolean released;

        Renewal(Delivery<?> delivery, long untilNanos) {
            this.delivery = delivery;
            this.untilNanos = untilNanos;
        }

        @Override
        public void run() {
            if (released || System.nanoTime() - untilNanos >= 0) {
                release();
                return;
            }
            try {
                if (!delivery.extendLease(lease)) {
                    release(); // settled, or no longer ours
                }
            } catch (QueueClosedException e) {
                release();
            } catch (RuntimeException e) {
                // the next renewal tries again; two may fail before the lease lapses
                failures.log(Level.WARNING, "could not renew the lease of " + delivery, e);
            }
        }

        @Override
        public void release() {
            released = true;
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }
    }
}
