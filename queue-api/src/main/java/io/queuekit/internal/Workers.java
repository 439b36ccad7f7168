package io.queuekit.internal;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.SerializationException;
import io.queuekit.Subscription;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The managed consumer behind {@link MessageQueue#consume}: named worker threads that fetch, run
 * the handler, and settle (ack on return; retry with backoff when it throws; dead-letter at the
 * maximum attempts, or at once when the body cannot be decoded). Started and stopped through
 * {@link Consumers}.
 *
 * <p>A worker survives anything a handler does: any {@link Throwable} it throws (an
 * {@link Error} too) is a failed attempt, and an interrupt it leaves set is cleared; only stopping
 * ends a worker. A transport failure while fetching is retried with a short capped backoff, so
 * consumers survive a Redis restart without user action, and is logged through the queue's
 * {@link Logs}: one stack trace for an outage, however many workers meet it. Every fetched
 * delivery is held by the queue's {@link LeaseKeeper} until settled, so a long handler keeps its message. A
 * worker's successes are acked together, by its next fetch where the store has an
 * {@link AckingFetch} (else in a call of their own just before it), still held until then; alone
 * before the next handler of a batch once the oldest has waited a second, at once while stopping,
 * and by a close whose wait ended while a later handler of the batch still ran.
 */
final class Workers implements Subscription {
    private static final Logger LOG = LoggerFactory.getLogger(Workers.class);
    private static final Duration LOG_PERIOD = Duration.ofSeconds(10);
    private static final long ACK_FLUSH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Consumers owner;
    private final MessageQueue<?> queue;
    private final ConsumeOptions options;
    private final LeaseKeeper leases;
    private final List<Worker> workers = new ArrayList<>();
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile boolean active = true;
    private volatile boolean terminated;

    /**
     * The failures every consumer of one queue logs, each kind rate-limited on its own and shared
     * by all their workers; {@link Consumers} holds them.
     */
    static final class Logs {
        final RateLimitedLog fetch = new RateLimitedLog(LOG, LOG_PERIOD);
        final RateLimitedLog batch = new RateLimitedLog(LOG, LOG_PERIOD);
        final RateLimitedLog handlerError = new RateLimitedLog(LOG, LOG_PERIOD);
        final RateLimitedLog settle = new RateLimitedLog(LOG, LOG_PERIOD);
    }

    /**
     * One worker thread. Its monitor guards {@code fetching}, so a stop interrupts fetches only,
     * and the successes of its batch waiting to be acked, which a close may flush from another
     * thread.
     */
    private static final class Worker {
        Thread thread;
        boolean fetching;
        final List<Delivery<?>> toAck = new ArrayList<>();
        final List<LeaseKeeper.Hold> toAckHolds = new ArrayList<>();
        long oldestToAck;
    }

    /** @param ackingFetch the store's, or null: the worker acks, then fetches */
    <T> Workers(
            Consumers owner,
            MessageQueue<T> queue,
            MessageHandler<T> handler,
            ConsumeOptions options,
            LeaseKeeper leases,
            AckingFetch<T> ackingFetch) {
        this.owner = owner;
        this.queue = queue;
        this.options = options;
        this.leases = leases;
        for (int i = 0; i < options.concurrency(); i++) {
            Worker w = new Worker();
            w.thread = newThread(options, () -> run(w, queue, handler, ackingFetch), owner.threadName());
            workers.add(w);
        }
    }

    void start() {
        workers.forEach(w -> w.thread.start());
    }

    /** A daemon thread named {@code name}, from the options' thread factory if they have one. */
    private static Thread newThread(ConsumeOptions options, Runnable body, String name) {
        ThreadFactory factory = options.threadFactory();
        Thread t = factory == null ? new Thread(body) : factory.newThread(body);
        if (t == null || t.getState() != Thread.State.NEW) {
            throw new IllegalStateException(
                    "the thread factory " + factory + " returned " + t + " where a new, unstarted thread was needed");
        }
        t.setName(name);
        t.setDaemon(true);
        return t;
    }

    // ---- the worker loop

    private <T> void run(Worker self, MessageQueue<T> q, MessageHandler<T> handler, AckingFetch<T> ackingFetch) {
        long failures = 0;
        FetchSize size = options.adaptiveBatch() ? new FetchSize() : null;
        try {
            while (true) {
                List<Delivery<T>> done = List.of(); // handled, to be acked with this fetch
                List<LeaseKeeper.Hold> doneHolds = List.of();
                synchronized (self) {
                    if (!active) {
                        return;
                    }
                    self.fetching = true;
                    if (ackingFetch != null && !self.toAck.isEmpty()) {
                        done = cast(List.copyOf(self.toAck));
                        doneHolds = List.copyOf(self.toAckHolds);
                        self.toAck.clear();
                        self.toAckHolds.clear();
                    }
                }
                flush(self); // where the store has no acking fetch
                int want = size == null ? options.batchSize() : size.next();
                List<Delivery<T>> batch = List.of();
                Throwable failure = null;
                long fetchStart = System.nanoTime();
                try {
                    if (!done.isEmpty()) {
                        try {
                            batch = ackingFetch.ackThenReceive(
                                    done, want, options.pollTimeout().toNanos());
                        } finally {
                            doneHolds.forEach(LeaseKeeper.Hold::release);
                        }
                    } else if (want == 1) {
                        Delivery<T> d = q.poll(options.pollTimeout().toMillis(), TimeUnit.MILLISECONDS);
                        batch = d == null ? List.of() : List.of(d);
                    } else {
                        batch = q.pollBatch(want, options.pollTimeout().toMillis(), TimeUnit.MILLISECONDS);
                    }
                    failures = 0;
                    owner.logs().fetch.recovered("queuekit {}: fetching works again", q.name());
                } catch (QueueClosedException e) {
                    return; // the queue is closing: it waits for what this worker already handled
                } catch (InterruptedException e) {
                    // stop() interrupts a fetch, or the handler of an earlier message left the flag set
                } catch (Throwable e) {
                    failure = e;
                } finally {
                    synchronized (self) {
                        self.fetching = false;
                        // an interrupt from stop() that came after the fetch returned is for no one
                        Thread.interrupted();
                    }
                }
                if (failure != null) {
                    failures++;
                    owner.logs().fetch.failed("queuekit " + q.name() + ": fetch failed, retrying", failure);
                    pause(Math.min(5_000, 50L << Math.min(failures, 7)));
                    continue;
                }
                long handleStart = System.nanoTime();
                try {
                    if (batch.size() == 1) {
                        handleSingle(self, batch.get(0), q, handler);
                    } else {
                        handle(self, batch, q, handler);
                    }
                    if (size != null) {
                        size.fetched(want, batch.size(), handleStart - fetchStart, System.nanoTime() - handleStart);
                    }
                } catch (Throwable e) {
                    // not the handler's (handle catches those): a metrics observer or the lease keeper
                    owner.logs().batch.failed("queuekit " + q.name() + ": handling a batch failed", e);
                }
            }
        } finally {
            flush(self); // stopping: no fetch comes to take them
        }
    }

    @SuppressWarnings("unchecked") // a worker's deliveries are all of its queue's payload type
    private static <T> List<Delivery<T>> cast(List<Delivery<?>> deliveries) {
        return (List<Delivery<T>>) (List<?>) deliveries;
    }

    /**
     * Runs the handler on a delivery fetched alone and settles it, holding its lease meanwhile:
     * what {@link #handle} does for a batch of one, without its lists, since a consumer of batch
     * size 1 (the default) does this for every message. A plain ack waits, held, for the next fetch.
     */
    private <T> void handleSingle(Worker self, Delivery<T> d, MessageQueue<T> q, MessageHandler<T> handler) {
        LeaseKeeper.Hold hold = leases.hold(d, options.leaseRenewalLimit());
        boolean keep = false;
        try {
            if (!terminated) {
                keep = handleOne(d, handler, q, true);
            }
            if (keep) {
                toAck(self, d, hold);
            }
        } finally {
            if (!keep) {
                hold.release();
            }
        }
    }

    /** Leaves a success to be acked with the next fetch, or by a flush. */
    private static void toAck(Worker self, Delivery<?> d, LeaseKeeper.Hold hold) {
        synchronized (self) {
            if (self.toAck.isEmpty()) {
                self.oldestToAck = System.nanoTime();
            }
            self.toAck.add(d);
            self.toAckHolds.add(hold);
        }
    }

    /**
     * Runs the handler on each delivery of a batch and settles it, holding every delivery's lease
     * from now until it is settled. Successes are acked together, with the next fetch; before the
     * next handler instead once the oldest has waited a second, at once while stopping, and by a
     * close that ends while a later handler of the batch still runs.
     */
    private <T> void handle(Worker self, List<Delivery<T>> batch, MessageQueue<T> q, MessageHandler<T> handler) {
        if (batch.isEmpty()) {
            return;
        }
        List<LeaseKeeper.Hold> holds = new ArrayList<>(batch.size());
        for (Delivery<T> d : batch) {
            holds.add(leases.hold(d, options.leaseRenewalLimit()));
        }
        boolean[] kept = new boolean[batch.size()];
        try {
            for (int i = 0; i < batch.size() && !terminated; i++) {
                if (handleOne(batch.get(i), handler, q, true)) {
                    toAck(self, batch.get(i), holds.get(i));
                    kept[i] = true;
                }
                boolean due;
                synchronized (self) {
                    due = !self.toAck.isEmpty() && (!active || System.nanoTime() - self.oldestToAck > ACK_FLUSH_NANOS);
                }
                if (due) {
                    flush(self);
                }
            }
        } finally {
            for (int i = 0; i < kept.length; i++) {
                if (!kept[i]) { // a kept hold is released once its ack is made
                    holds.get(i).release();
                }
            }
        }
    }

    /** Acks, in one round trip, the successes {@code w} holds; from its own thread or a close. */
    private void flush(Worker w) {
        List<Delivery<?>> toAck;
        List<LeaseKeeper.Hold> holds;
        synchronized (w) {
            if (w.toAck.isEmpty()) {
                return;
            }
            toAck = List.copyOf(w.toAck);
            holds = List.copyOf(w.toAckHolds);
            w.toAck.clear();
            w.toAckHolds.clear();
        }
        settleQuietly(() -> ackAll(queue, toAck), toAck.size() + " messages");
        holds.forEach(LeaseKeeper.Hold::release);
    }

    @SuppressWarnings("unchecked")
    private static <T> int ackAll(MessageQueue<T> q, List<Delivery<?>> deliveries) {
        return q.ackAll((List<Delivery<T>>) (List<?>) deliveries);
    }

    /** Acks what every worker holds acked-to-be, for a close whose wait has ended. */
    void flushAll() {
        workers.forEach(this::flush);
    }

    /** Whether {@code t} is one of these workers. */
    boolean runs(Thread t) {
        for (Worker w : workers) {
            if (w.thread == t) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the handler on one delivery and settles it, except a plain ack when {@code deferAck}:
     * then it returns true and the caller acks.
     */
    private <T> boolean handleOne(
            Delivery<T> delivery, MessageHandler<T> handler, MessageQueue<T> q, boolean deferAck) {
        TrackedDelivery<T> d = new TrackedDelivery<>(delivery, q.name(), LOG);
        QueueMetrics.Observer observer = owner.observer();
        boolean timed = observer != QueueMetrics.Observer.NONE; // with no metrics, no clock to read twice a message
        long start = timed ? System.nanoTime() : 0;
        Throwable thrown = null;
        try {
            handler.handle(d);
        } catch (Throwable e) {
            thrown = e;
        }
        Throwable failure = thrown;
        // a handler that returns with its thread interrupted does not stop the worker: only a stop does
        Thread.interrupted();
        if (timed) {
            observer.handled(Duration.ofNanos(System.nanoTime() - start), failure != null);
        }
        if (d.settled) {
            return false;
        }
        if (failure == null) {
            if (deferAck) {
                return true;
            }
            settleQuietly(d::ack, d.id().value());
        } else if (failure instanceof SerializationException) {
            settleQuietly(
                    () -> d.deadLetter(DeadLetterDecoding.UNDECODABLE + ": " + failure.getMessage()), d.id().value());
        } else {
            int maxAttempts = owner.maxAttempts();
            boolean last = d.attempt() >= maxAttempts;
            Duration backoff = last ? null : options.backoff(d.attempt());
            owner.logs()
                    .handlerError
                    .failed(
                            "queuekit " + q.name() + ": the handler "
                                    + (failure instanceof Error ? "threw an Error" : "failed")
                                    + " on " + d.id() + " (attempt " + d.attempt() + " of " + maxAttempts + "); "
                                    + (last ? "dead-lettering it" : "retrying in " + backoff),
                            failure);
            if (last) {
                settleQuietly(() -> d.deadLetter(reason(failure, d.attempt())), d.id().value());
            } else {
                settleQuietly(() -> d.retry(backoff), d.id().value());
            }
        }
        return false;
    }

    /** Settles; a failure is logged, since the lease returns the message anyway. */
    private void settleQuietly(Runnable settle, String what) {
        try {
            settle.run();
            owner.logs().settle.recovered("queuekit {}: settling works again", queue.name());
        } catch (QueueClosedException e) {
            // closed after the shutdown timeout: the lease returns the message
        } catch (RuntimeException e) {
            owner.logs()
                    .settle
                    .failed(
                            "queuekit " + queue.name() + ": could not settle " + what + "; the lease will return it",
                            e);
        }
    }

    private static String reason(Throwable e, int attempt) {
        String msg = e.getMessage();
        return "failed " + attempt + " attempt(s); last: " + e.getClass().getName() + (msg == null ? "" : ": " + msg);
    }

    private void pause(long millis) {
        try {
            stopSignal.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            // the loop checks whether it was stopped
        }
    }

    // ---- stopping

    @Override
    public boolean isActive() {
        return active;
    }

    /** Stops fetching: workers finish what they hold and end. Wakes workers blocked in a fetch. */
    void stop() {
        if (!active) {
            return;
        }
        active = false;
        stopSignal.countDown();
        for (Worker w : workers) {
            synchronized (w) {
                if (w.fetching) {
                    w.thread.interrupt();
                }
            }
        }
    }

    /** Waits until every worker ended or {@code deadlineNanos} (System.nanoTime) passed. */
    void awaitEnd(long deadlineNanos) {
        for (Worker w : workers) {
            if (w.thread == Thread.currentThread()) {
                continue; // a handler closing its own consumer
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * After the shutdown timeout: handlers still running are interrupted, settle nothing more of
     * their batch, and lease keeping stops.
     */
    void terminate() {
        terminated = true;
        stop();
        for (Worker w : workers) {
            if (w.thread.isAlive() && w.thread != Thread.currentThread()) {
                LOG.warn(
                        "queuekit {}: {} was still running a handler {} after close; interrupted it, and "
                                + "what it holds comes back after its lease",
                        queue.name(),
                        w.thread.getName(),
                        options.shutdownTimeout());
                w.thread.interrupt();
            }
        }
        leases.close();
    }

    /**
     * Stops fetching, lets running handlers finish and settle within the shutdown timeout, then
     * interrupts what still runs. Idempotent.
     */
    @Override
    public void close() {
        if (terminated) {
            return;
        }
        stop();
        int busy = busyWorkers();
        if (busy > 0) {
            LOG.info(
                    "queuekit {}: closing; waiting up to {} for {} running handler(s) to finish",
                    queue.name(),
                    options.shutdownTimeout(),
                    busy);
        }
        awaitEnd(System.nanoTime() + options.shutdownTimeout().toNanos());
        flushAll();
        terminate();
        owner.removed(this);
    }

    /** Workers other than the caller that are not waiting in a fetch: running a handler, or about to. */
    private int busyWorkers() {
        int busy = 0;
        for (Worker w : workers) {
            synchronized (w) {
                if (w.thread.isAlive() && !w.fetching && w.thread != Thread.currentThread()) {
                    busy++;
                }
            }
        }
        return busy;
    }

    ConsumeOptions options() {
        return options;
    }
}
