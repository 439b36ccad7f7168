package io.queuekit.internal;

import static io.queuekit.internal.RateLimitedLog.more;

import io.queuekit.Headers;
import io.queuekit.SerializationException;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * The listener side of one broadcast subscription, the same on every transport: the
 * {@link Inbox} its source fills, and the daemon thread {@code queuekit-<channel>-subscriber-<n>}
 * that empties it. For each message that thread decodes, tells the observer, calls the listener,
 * counts, and logs rate-limited; a codec, an observer or a listener that throws (an {@link Error}
 * included) is logged and contained, a listener that leaves its thread interrupted has the flag
 * cleared, and delivery goes on. Only {@link #beginClose()} ends the thread; if anything else
 * ever did, the subscription is told, so that it does not go on calling itself active.
 *
 * <p>Messages are taken out of the inbox in batches, so that a burst costs one wake-up, but each
 * stays {@linkplain Inbox#release held} until it is handed to the listener: the inbox's bounds
 * cover everything the subscription holds.
 *
 * @param <B> the form a message arrives in
 * @param <T> the payload type
 */
public final class BroadcastDispatch<B, T> {
    private static final int DRAIN = 256;
    private static final Duration LOG_PERIOD = Duration.ofSeconds(10);

    /** Receives the messages, told the name of the channel each came from and its headers. */
    @FunctionalInterface
    public interface Listener<T> {
        void onMessage(String channel, T message, Headers headers) throws Exception;
    }

    private final String name;
    private final String channel;
    private final Function<? super B, ? extends T> decode;
    private final Function<? super B, Headers> headers;
    private final BroadcastRuntime<?> runtime;
    private final Listener<? super T> listener;
    private final Runnable onFailure;
    private final QueueMetrics.Observer observer;
    private final Logger log;
    private final BroadcastCounters counters;
    private final Inbox<Inbound<B>> inbox;
    private final Thread thread;
    private final RateLimitedLog listenerLog;
    private final RateLimitedLog decodeLog;
    private volatile boolean closing;

    /**
     * @param name the subscription's name, {@link BroadcastRuntime#nextSubscriptionName()}: its thread's
     * @param channel the channel a message comes from unless it says otherwise
     * @param maxItems how many messages the subscription holds at most
     * @param maxBytes how many bytes of messages it holds at most (one larger message is taken alone)
     * @param decode the payload of a message's body; whatever it throws makes a decode failure
     * @param headers the headers of a message's body; none if it throws
     * @param onFailure ends the subscription, should its thread ever end other than by closing
     */
    public BroadcastDispatch(
            BroadcastRuntime<?> runtime,
            String name,
            String channel,
            int maxItems,
            long maxBytes,
            Function<? super B, ? extends T> decode,
            Function<? super B, Headers> headers,
            Listener<? super T> listener,
            Runnable onFailure) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.headers = Objects.requireNonNull(headers, "headers");
        this.name = Objects.requireNonNull(name, "name");
        this.channel = Objects.requireNonNull(channel, "channel");
        this.decode = Objects.requireNonNull(decode, "decode");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
        this.observer = runtime.observer();
        this.log = runtime.log();
        this.counters = runtime.totals().child();
        this.inbox = new Inbox<>(maxItems, maxBytes, Inbound::size);
        this.listenerLog = new RateLimitedLog(log, LOG_PERIOD);
        this.decodeLog = new RateLimitedLog(log, LOG_PERIOD);
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true); // a forgotten subscription must not keep the JVM alive
    }

    /** Starts the listener's thread, unless closing has begun. */
    public void start() {
        if (!closing) {
            thread.start();
        }
    }

    /** Adds a message or event if there is room now; false if there is none, or once closing. */
    public boolean offer(Inbound<B> item) {
        return inbox.offer(item);
    }

    /** Adds a message or event, waiting at most {@code timeout} for room; false if none came, or once closing. */
    public boolean offer(Inbound<B> item, long timeout, TimeUnit unit) throws InterruptedException {
        return inbox.offer(item, timeout, unit);
    }

    /** The bytes of the messages held and not yet handed to the listener. */
    public long heldBytes() {
        return inbox.bytes();
    }

    /** This subscription's counts. */
    public BroadcastCounters counters() {
        return counters;
    }

    /**
     * Stops delivering: what is held is dropped, and the listener's thread is woken, and
     * interrupted unless this is it (a listener call in progress finishes; the interrupt matters
     * only to one that blocks interruptibly). Does not wait. Idempotent.
     */
    public void beginClose() {
        if (closing) {
            return;
        }
        closing = true;
        inbox.close();
        if (Thread.currentThread() != thread) {
            thread.interrupt();
        }
    }

    /** Waits for the listener's thread to end, until {@code deadlineNanos} at most; says so if it did not. */
    public void awaitTermination(long deadlineNanos) {
        if (!BroadcastRuntime.awaitEnd(thread, deadlineNanos) && thread != Thread.currentThread()) {
            log.warn(
                    "{}: the listener was still running when close() stopped waiting; its thread ends when the "
                            + "listener returns",
                    name);
        }
    }

    private void run() {
        List<Inbound<B>> batch = new ArrayList<>(DRAIN);
        try {
            while (!closing) {
                batch.clear();
                try {
                    inbox.drainTo(batch, DRAIN);
                } catch (InterruptedException e) {
                    continue; // closing interrupts to wake this thread
                }
                for (int i = 0; i < batch.size() && !closing; i++) {
                    Inbound<B> item = batch.get(i);
                    inbox.release(item); // handed to the listener now: no longer held for it
                    handle(item);
                }
            }
        } finally {
            if (!closing) {
                // not reachable by design; should it happen, the subscription must not stay "active"
                log.error("{}: the listener's thread ended unexpectedly; the subscription is closed", name);
                onFailure.run();
            }
        }
    }

    private void handle(Inbound<B> item) {
        try {
            if (item.isEvent()) {
                runEvent(item);
            } else {
                deliver(item);
            }
        } catch (Throwable t) {
            // only a logger can get here (out of memory, say): the subscription carries on
        } finally {
            if (!closing) {
                // a listener that left its thread interrupted must not interrupt the next call
                Thread.interrupted();
            }
        }
    }

    private Headers headersOf(B body) {
        try {
            return headers.apply(body);
        } catch (RuntimeException e) {
            return Headers.empty();
        }
    }

    private void runEvent(Inbound<B> item) {
        try {
            item.action().run();
        } catch (Throwable t) {
            log.warn("{}: {} threw", name, item.event(), t);
        }
    }

    private void deliver(Inbound<B> item) {
        String from = item.channel() != null ? item.channel() : channel;
        T value;
        try {
            value = decode.apply(item.body());
            if (value == null) {
                throw new SerializationException("decoded a message as null", null);
            }
        } catch (Throwable e) {
            counters.decodeFailed();
            observer.decodeFailed();
            long held = decodeLog.tryAcquire();
            if (held >= 0) {
                log.warn("{} skipped a message from {} that could not be decoded{}", name, from, more(held), e);
            }
            return;
        }
        long start = System.nanoTime();
        observer.delivered(Duration.ofNanos(start - item.arrivedNanos()));
        boolean failed = false;
        try {
            Headers h = headersOf(item.body());
            runtime.handling(h, () -> listener.onMessage(from, value, h));
        } catch (Throwable t) {
            failed = true;
            if (!closing || !(t instanceof InterruptedException)) {
                counters.listenerFailed();
                long held = listenerLog.tryAcquire();
                if (held >= 0) {
                    log.warn(
                            "{}: the listener threw on a message from {}; the subscription carries on{}",
                            name,
                            from,
                            more(held),
                            t);
                }
            }
        }
        observer.handled(Duration.ofNanos(System.nanoTime() - start), failed);
    }
}
