package io.queuekit.internal;

import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LeaseKeeper#renewing}: holding a delivery costs a set insertion, and one timer task walks
 * the held deliveries every sixth of the lease, renewing those whose last renewal (or fetch) is a
 * third of the lease old. So a lease is renewed with at least half of it left, and a renewal may
 * fail once before it lapses; a handler that finishes within a third of the lease costs no round
 * trip. Renewal stops at the limit, so the lease lapses at most one lease after it.
 */
final class LeaseRenewer implements LeaseKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewer.class);

    private final Duration lease;
    private final long renewAfterNanos;
    private final long sweepNanos;
    private final String threadName;
    private final Set<Renewal> held = ConcurrentHashMap.newKeySet();
    private final RateLimitedLog failures = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private volatile ScheduledThreadPoolExecutor timer; // set under this lock, with the first hold
    private volatile boolean closed; // set under this lock

    LeaseRenewer(String threadName, Duration lease) {
        this.threadName = threadName;
        this.lease = lease;
        this.renewAfterNanos = lease.toNanos() / 3;
        this.sweepNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), lease.toNanos() / 6);
    }

    @Override
    public Hold hold(Delivery<?> delivery, Duration limit) {
        if (limit.isZero() || !started()) {
            return () -> {};
        }
        long now = System.nanoTime();
        Renewal r = new Renewal(delivery, now, now + limit.toNanos());
        held.add(r);
        return r;
    }

    /** Starts the timer on the first hold; false once closed. */
    private boolean started() {
        if (timer != null && !closed) {
            return true;
        }
        synchronized (this) {
            return startOnce();
        }
    }

    private boolean startOnce() {
        if (closed) {
            return false;
        }
        if (timer == null) {
            timer = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
            try {
                // runs until the timer shuts down, which is how it stops
                ScheduledFuture<?> unused =
                        timer.scheduleWithFixedDelay(this::sweep, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                return false;
            }
        }
        return true;
    }

    @SuppressWarnings("ModifyCollectionInEnhancedForLoop") // held is a concurrent set: removing while iterating is safe
    private void sweep() {
        long now = System.nanoTime();
        for (Renewal r : held) {
            if (now - r.until >= 0) {
                held.remove(r); // the limit: the lease lapses on its own
            } else if (now - r.renewedAt >= renewAfterNanos) {
                renew(r, now);
            }
        }
    }

    private void renew(Renewal r, long now) {
        try {
            if (r.delivery.extendLease(lease)) {
                r.renewedAt = now;
                failures.recovered("{}: renewing leases works again", threadName);
            } else {
                held.remove(r); // settled, or no longer ours
            }
        } catch (QueueClosedException e) {
            held.remove(r);
        } catch (RuntimeException e) {
            // the next sweep tries again, with half of the lease left at least
            failures.failed(threadName + ": could not renew the lease of " + r.delivery, e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        held.clear();
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private final class Renewal implements Hold {
        final Delivery<?> delivery;
        final long until;
        volatile long renewedAt;

        Renewal(Delivery<?> delivery, long now, long until) {
            this.delivery = delivery;
            this.renewedAt = now;
            this.until = until;
        }

        @Override
        public void release() {
            held.remove(this);
        }
    }
}
