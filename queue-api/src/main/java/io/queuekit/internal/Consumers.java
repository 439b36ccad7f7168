package io.queuekit.internal;

import io.queuekit.ConsumeOptions;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The managed consumers of one queue instance: starts them for {@link MessageQueue#consume} and
 * stops them when the queue closes. Each queue holds one. Thread-safe.
 *
 * <p>A queue closes gracefully: it stops handing out messages (blocked receivers get
 * {@link QueueClosedException}), then calls {@link #shutDown(Runnable)}, which stops every
 * consumer's fetching and waits, up to each one's {@linkplain ConsumeOptions#shutdownTimeout()
 * shutdown timeout}, for the handlers that run to finish and settle (the queue still accepts
 * settling), acks what they finished, lets the queue refuse everything, and interrupts handlers
 * still running.
 */
public final class Consumers {
    private final String queueName;
    private final int maxAttempts;
    private final QueueMetrics.Observer observer;
    private final MessageObservations observations;
    private final MessageObservations.Destination destination;
    private final Supplier<? extends QueueStore<?>> store;
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private final Workers.Logs logs = new Workers.Logs();
    private final Set<Workers> running = new LinkedHashSet<>(); // guarded by this
    private boolean closing; // guarded by this
    private CountDownLatch shutDown; // guarded by this; counted down once the queue is closed

    /**
     * @param queueName names the worker threads: {@code queuekit-<queueName>-consumer-<n>}, numbered
     *     from 1 across every {@code consume} call of the queue
     * @param maxAttempts a handler failure on this attempt dead-letters the message
     * @param observer where handler times are reported
     * @param observations what every handler runs inside, given the message's headers
     * @param destination the queue, as {@code observations} name it
     * @param store the queue's store, once attached: it makes the lease keeper of each
     *     {@code consume} call (closed when it stops) and may ack with a fetch
     */
    public Consumers(
            String queueName,
            int maxAttempts,
            QueueMetrics.Observer observer,
            MessageObservations observations,
            MessageObservations.Destination destination,
            Supplier<? extends QueueStore<?>> store) {
        this.queueName = Objects.requireNonNull(queueName, "queueName");
        this.maxAttempts = maxAttempts;
        this.observer = Objects.requireNonNull(observer, "observer");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.destination = Objects.requireNonNull(destination, "destination");
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Starts {@code options.concurrency()} workers running {@code handler} on {@code queue} (the
     * transport's entry object, whose receiving methods they call). This is the one place a
     * transport registers a {@code consume} call: it refuses one once {@link #shutDown} began, and
     * one it accepted before is drained by that shut-down, so a consume racing close either throws
     * or is stopped by it.
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
            QueueStore<T> s = storeOf(queue);
            w = new Workers(this, queue, observed(handler), options, s.leaseKeeper(), s.ackingFetch());
            running.add(w);
        }
        w.start();
        return w;
    }

    /** {@code handler} run inside the queue's observations, unless there are none. */
    private <T> MessageHandler<T> observed(MessageHandler<T> handler) {
        if (observations == MessageObservations.NONE) {
            return handler;
        }
        return d -> observations.handling(destination, d.headers(), () -> handler.handle(d));
    }

    // the store is the queue's own, of its payload type, which the otherwise unread parameter names
    @SuppressWarnings({"unchecked", "UnusedVariable"})
    private <T> QueueStore<T> storeOf(MessageQueue<T> queue) {
        return (QueueStore<T>) store.get();
    }

    /**
     * The rest of a queue's close, once it refuses receiving: drains the consumers, runs
     * {@code closed} (from then on the queue refuses every call), and interrupts handlers still
     * running. Called from a handler of this queue (which closes its own queue), it returns at once
     * and does this on a thread of its own, so that the handler can still settle its message after
     * it returns. Call it once per queue; {@link #awaitShutDown()} waits for it.
     */
    public void shutDown(Runnable closed) {
        synchronized (this) {
            if (shutDown != null) {
                throw new IllegalStateException(queueName + " is already shutting down");
            }
            shutDown = new CountDownLatch(1);
            closing = true; // now, not when the drain begins (maybe on another thread): start() refuses from here
        }
        CountDownLatch done = shutDown;
        Runnable rest = () -> {
            try {
                drain();
                closed.run();
                terminate();
            } finally {
                done.countDown();
            }
        };
        if (isWorkerThread()) {
            Thread t = new Thread(rest, "queuekit-" + queueName + "-closing");
            t.setDaemon(true);
            t.start();
        } else {
            rest.run();
        }
    }

    /**
     * For a second caller of a queue's close: waits until the first one's shut-down has ended
     * (bounded by the shutdown timeouts), unless called from a handler of this queue.
     */
    public void awaitShutDown() {
        CountDownLatch done;
        synchronized (this) {
            done = shutDown;
        }
        if (done == null || isWorkerThread()) {
            return;
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean isWorkerThread() {
        Thread me = Thread.currentThread();
        synchronized (this) {
            return running.stream().anyMatch(w -> w.runs(me));
        }
    }

    /**
     * Stops every consumer's fetching and waits until their handlers finished and settled, or each
     * one's shutdown timeout passed; then acks the successes a batch still held. Later
     * {@link #start} calls are refused.
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
        all.forEach(Workers::flushAll);
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

    Workers.Logs logs() {
        return logs;
    }

    String threadName() {
        return "queuekit-" + queueName + "-consumer-" + threadNumbers.incrementAndGet();
    }

    synchronized void removed(Workers w) {
        running.remove(w);
    }
}
