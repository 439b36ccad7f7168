package io.queuekit.spi;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.SerializationException;
import io.queuekit.Subscription;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The managed consumer behind {@link MessageQueue#consume}: named worker threads that fetch, run
 * the handler, and settle (ack on return; retry with backoff on exception; dead-letter at the
 * maximum attempts, or at once when the body cannot be decoded). A transport failure while
 * fetching is logged and retried with a short capped backoff, so consumers survive a Redis
 * restart without user action.
 */
public final class Workers implements Subscription {
    private static final System.Logger LOG = System.getLogger(Workers.class.getName());
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final long JOIN_MILLIS = 10_000;

    private final MessageQueue<?> queue;
    private final QueueMetrics.Observer observer;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean active = new AtomicBoolean(true);

    private Workers(MessageQueue<?> queue, QueueMetrics.Observer observer) {
        this.queue = queue;
        this.observer = observer;
    }

    /**
     * Starts {@code options.concurrency()} workers on {@code queue}.
     *
     * @param maxAttempts the queue's maximum deliveries of one message; a handler failure on this
     *     attempt dead-letters the message instead of retrying it
     */
    public static <T> Workers start(MessageQueue<T> queue, MessageHandler<T> handler,
            ConsumeOptions options, int maxAttempts) {
        return start(queue, handler, options, maxAttempts, QueueMetrics.Observer.NONE);
    }

    /** As {@link #start(MessageQueue, MessageHandler, ConsumeOptions, int)}, timing each handler call. */
    public static <T> Workers start(MessageQueue<T> queue, MessageHandler<T> handler,
            ConsumeOptions options, int maxAttempts, QueueMetrics.Observer observer) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(options, "options");
        Workers w = new Workers(queue, Objects.requireNonNull(observer, "observer"));
        int group = SEQUENCE.incrementAndGet();
        for (int i = 1; i <= options.concurrency(); i++) {
            String name = "queuekit-" + queue.name() + "-consumer-" + (group == 1 ? "" : group + "-") + i;
            Thread t = new Thread(() -> w.run(queue, handler, options, maxAttempts), name);
            t.setDaemon(true);
            w.threads.add(t);
        }
        w.threads.forEach(Thread::start);
        return w;
    }

    private <T> void run(MessageQueue<T> q, MessageHandler<T> handler, ConsumeOptions options,
            int maxAttempts) {
        long pollMillis = options.pollTimeout().toMillis();
        long failures = 0;
        while (active.get()) {
            List<Delivery<T>> batch;
            try {
                batch = options.batchSize() == 1
                        ? single(q.poll(pollMillis, TimeUnit.MILLISECONDS))
                        : q.pollBatch(options.batchSize(), pollMillis, TimeUnit.MILLISECONDS);
                failures = 0;
            } catch (InterruptedException | QueueClosedException e) {
                break;
            } catch (RuntimeException e) {
                failures++;
                LOG.log(Level.WARNING, "queuekit " + q.name() + ": fetch failed (" + e + "), retrying", e);
                if (!pause(Math.min(5_000, 50L << Math.min(failures, 7)))) {
                    break;
                }
                continue;
            }
            if (batch.size() == 1) {
                handleOne(batch.get(0), handler, options, maxAttempts, false);
                continue;
            }
            // a batch is acked together after its last message, in one round trip
            List<Delivery<T>> done = new ArrayList<>(batch.size());
            for (Delivery<T> d : batch) {
                if (handleOne(d, handler, options, maxAttempts, true)) {
                    done.add(d);
                }
            }
            settleQuietly(q, () -> q.ackAll(done), done.size() + " messages");
        }
    }

    private static <T> List<Delivery<T>> single(Delivery<T> d) {
        return d == null ? List.of() : List.of(d);
    }

    /**
     * Runs the handler on one delivery and settles it, except a plain ack when {@code deferAck}:
     * then it returns true and the caller acks.
     */
    private <T> boolean handleOne(Delivery<T> delivery, MessageHandler<T> handler, ConsumeOptions options,
            int maxAttempts, boolean deferAck) {
        Tracked<T> d = new Tracked<>(delivery);
        long start = System.nanoTime();
        try {
            handler.handle(d);
            observer.handled(Duration.ofNanos(System.nanoTime() - start), false);
            if (!d.settled) {
                if (deferAck) {
                    return true;
                }
                settleQuietly(queue, d::ack, d.id().value());
            }
        } catch (SerializationException e) {
            observer.handled(Duration.ofNanos(System.nanoTime() - start), true);
            if (!d.settled) {
                settleQuietly(queue, () -> d.deadLetter("undecodable: " + e.getMessage()), d.id().value());
            }
        } catch (Exception | AssertionError e) {
            observer.handled(Duration.ofNanos(System.nanoTime() - start), true);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (!d.settled) {
                if (d.attempt() >= maxAttempts) {
                    settleQuietly(queue, () -> d.deadLetter(reason(e, d.attempt())), d.id().value());
                } else {
                    settleQuietly(queue, () -> d.retry(options.backoff(d.attempt())), d.id().value());
                }
            }
        }
        return false;
    }

    /** Settles; a failure is logged, since the lease returns the message anyway. */
    private static void settleQuietly(MessageQueue<?> queue, Runnable settle, String what) {
        try {
            settle.run();
        } catch (QueueClosedException e) {
            // the lease returns the message
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "queuekit " + queue.name() + ": could not settle " + what
                    + "; the lease will return it", e);
        }
    }

    private static String reason(Throwable e, int attempt) {
        String msg = e.getMessage();
        return "failed " + attempt + " attempt(s); last: " + e.getClass().getName() + (msg == null ? "" : ": " + msg);
    }

    private boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return active.get();
        } catch (InterruptedException e) {
            return false;
        }
    }

    @Override
    public boolean isActive() {
        return active.get();
    }

    /** Stops the workers and waits (up to 10 s) for the message in hand to be finished. */
    @Override
    public void close() {
        if (!active.compareAndSet(true, false)) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                t.join(Math.max(1, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Remembers whether the handler settled the delivery itself. */
    private static final class Tracked<T> implements Delivery<T> {
        private final Delivery<T> d;
        volatile boolean settled;

        Tracked(Delivery<T> d) {
            this.d = d;
        }

        @Override
        public MessageId id() {
            return d.id();
        }

        @Override
        public T payload() {
            return d.payload();
        }

        @Override
        public int attempt() {
            return d.attempt();
        }

        @Override
        public Instant enqueuedAt() {
            return d.enqueuedAt();
        }

        @Override
        public boolean ack() {
            settled = true;
            return d.ack();
        }

        @Override
        public boolean retry(Duration delay) {
            settled = true;
            return d.retry(delay);
        }

        @Override
        public boolean deadLetter(String reason) {
            settled = true;
            return d.deadLetter(reason);
        }
    }
}
