package io.queuekit.spi;

import io.queuekit.ConsumeOptions;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The managed consumers of one queue instance: starts them for {@link MessageQueue#consume} and
 * stops them when the queue closes. Each queue holds one. Thread-safe.
 *
 * <p>A queue closes gracefully in four steps: it stops handing out messages (blocked receivers get
 * {@link QueueClosedException}); {@link #drain()} stops every consumer's fetching and waits, up to
 * each one's {@linkplain ConsumeOptions#shutdownTimeout() shutdown timeout}, for the handlers that
 * run to finish and settle, which the queue still accepts; the queue then refuses everything; and
 * {@link #terminate()} interrupts handlers still running.
 */
public final class Consumers {
    private final String queueName;
    private final int maxAttempts;
    private final QueueMetrics.Observer observer;
    private final Supplier<LeaseKeeper> leases;
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private final Set<Workers> running = new LinkedHashSet<>(); // guarded by this
    private boolean closing; // guarded by this

    /**
     * @param queueName names the worker threads: {@code queuekit-<queueName>-consumer-<n>}, numbered
     *     from 1 across every {@code consume} call of the queue
     * @param maxAttempts a handler failure on this attempt dead-letters the message
     * @param observer where handler times are reported
     * @param leases makes the lease keeper of each {@code consume} call; closed when it stops
     */
    public Consumers(String queueName, int maxAttempts, QueueMetrics.Observer observer,
            Supplier<LeaseKeeper> leases) {
        this.queueName = Objects.requireNonNull(queueName, "queueName");
        this.maxAttempts = maxAttempts;
        this.observer = Objects.requireNonNull(observer, "observer");
        this.leases = Objects.requireNonNull(leases, "leases");
    }

    /**
     * Starts {@code options.concurrency()} workers running {@code handler} on {@code queue} (the
     * transport's entry object, whose receiving methods they call).
     *
     * @throws QueueClosedException if the queue is closing or closed
     */
    public <T> Subscription start(MessageQueue<T> queue, MessageHandler<T> handler, ConsumeOptions options) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(options, "options");
        Workers w;
        synchronized (this) {
            if (closing) {
                throw new QueueClosedException(queueName);
            }
            w = new Workers(this, queue, handler, options, leases.get());
            running.add(w);
        }
        w.start();
        return w;
    }

    /**
     * Stops every consumer's fetching and waits until their handlers finished and settled, or each
     * one's shutdown timeout passed. Later {@link #start} calls are refused.
     */
    public void drain() {
        List<Workers> all;
        synchronized (this) {
            closing = true;
            all = List.copyOf(running);
        }
        long start = System.nanoTime();
        all.forEach(Workers::stop);
        for (Workers w : all) {
            w.awaitEnd(start + w.options().shutdownTimeout().toNanos());
        }
    }

    /** Interrupts handlers still running after {@link #drain()} and stops keeping leases. */
    public void terminate() {
        List<Workers> all;
        synchronized (this) {
            closing = true;
            all = List.copyOf(running);
            running.clear();
        }
        all.forEach(Workers::terminate);
    }

    int maxAttempts() {
        return maxAttempts;
    }

    QueueMetrics.Observer observer() {
        return observer;
    }

    String threadName() {
        return "queuekit-" + queueName + "-consumer-" + threadNumbers.incrementAndGet();
    }

    synchronized void removed(Workers w) {
        running.remove(w);
    }
}
