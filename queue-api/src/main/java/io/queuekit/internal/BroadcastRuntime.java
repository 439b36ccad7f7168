package io.queuekit.internal;

import io.queuekit.Headers;
import io.queuekit.QueueClosedException;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.slf4j.Logger;

/**
 * What every broadcaster does the same whatever its transport: its lifecycle (open, then closed
 * for good), its subscriptions (named, registered, ended with it), its metrics observer, guarded so
 * that it cannot throw, and its counts. One per broadcaster; thread-safe. The listener side of each
 * subscription is a {@link BroadcastDispatch}; what a transport keeps is how messages reach it.
 *
 * <p>A subscription made while {@link #close} runs must not outlive it: {@link #register} ends
 * the subscription itself and refuses it once the broadcaster is closed.
 *
 * @param <S> the transport's subscription
 */
public final class BroadcastRuntime<S extends BroadcastRuntime.Member> {

    /** A subscription, as its broadcaster ends it. */
    public interface Member {
        /** Stops taking messages and starts ending its threads, without waiting. Idempotent. */
        void beginClose();

        /** Waits for its threads to end, until {@code deadlineNanos} ({@link System#nanoTime()}) at most. */
        void awaitTermination(long deadlineNanos);
    }

    private final String channel;
    private final String label;
    private final Logger log;
    private final QueueMetrics.Observer observer;
    private final MessageObservations observations;
    private final MessageObservations.Destination destination;
    private final Duration closeTimeout;
    private final BroadcastCounters totals = new BroadcastCounters();
    private final AtomicInteger numbers = new AtomicInteger();
    private final List<S> members = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param channel the channel's name, as its subscriptions' threads carry it
     * @param label names the broadcaster in exceptions ({@code "broadcaster prices"})
     * @param observer where it reports, as the metrics gave it; guarded here
     * @param closeTimeout how long closing waits for a subscription's threads, or all of them
     * @param log where the broadcaster and its subscriptions log
     */
    public BroadcastRuntime(
            String channel, String label, QueueMetrics.Observer observer, Duration closeTimeout, Logger log) {
        this(channel, label, observer, MessageObservations.NONE, "", closeTimeout, log);
    }

    /**
     * As the constructor without observations, with {@code observations} seeing every publish and
     * every message a listener handles.
     *
     * @param transport the transport's name, as {@link io.queuekit.Semantics#transport()} says it
     */
    public BroadcastRuntime(
            String channel,
            String label,
            QueueMetrics.Observer observer,
            MessageObservations observations,
            String transport,
            Duration closeTimeout,
            Logger log) {
        this.observations = Objects.requireNonNull(observations, "observations");
        this.destination = new MessageObservations.Destination(channel, transport, MessageObservations.Kind.BROADCAST);
        this.channel = Objects.requireNonNull(channel, "channel");
        this.label = Objects.requireNonNull(label, "label");
        this.log = Objects.requireNonNull(log, "log");
        this.observer = GuardedObserver.of(observer, log, "queuekit " + channel);
        this.closeTimeout = Objects.requireNonNull(closeTimeout, "closeTimeout");
    }

    /** Where the broadcaster reports what it does; never throws. */
    public QueueMetrics.Observer observer() {
        return observer;
    }

    /**
     * Runs one publish of {@code count} messages inside the broadcaster's observations:
     * {@code send} publishes them, each with the headers it is given added to its own.
     */
    public <R> R sending(int count, MessageObservations.Send<R> send) {
        return observations.sending(destination, count, send);
    }

    /** Runs a listener's handling of one message that arrived with {@code headers} inside the observations. */
    void handling(Headers headers, MessageObservations.Handling handling) throws Exception {
        observations.handling(destination, headers, handling);
    }

    Logger log() {
        return log;
    }

    /** Counts over every subscription this broadcaster made. */
    public BroadcastCounters totals() {
        return totals;
    }

    /** How long closing waits for a subscription's threads, or for all of them. */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /** The next subscription's name, {@code queuekit-<channel>-subscriber-<n>}: its listener thread's. */
    public String nextSubscriptionName() {
        return "queuekit-" + channel + "-subscriber-" + numbers.incrementAndGet();
    }

    /** Throws {@link QueueClosedException} once closed. */
    public void checkOpen() {
        if (closed.get()) {
            throw new QueueClosedException(label);
        }
    }

    /**
     * Adds a subscription, to be ended by {@link #close}; once closed, ends it and throws
     * {@link QueueClosedException} instead.
     */
    public S register(S member) {
        members.add(member);
        if (closed.get()) {
            // close() may have run before add() and missed it
            members.remove(member);
            member.beginClose();
            throw new QueueClosedException(label);
        }
        return member;
    }

    /** Removes a subscription that ended. */
    public void unregister(S member) {
        members.remove(member);
    }

    /** The subscriptions running now, in the order they were made; a snapshot. */
    public List<S> members() {
        return members;
    }

    /**
     * Closes the broadcaster: later calls throw {@link QueueClosedException}, every subscription
     * ends, and this waits for their threads, {@link #closeTimeout()} in all at most; then
     * {@code alsoUntil} is given that deadline, for the transport's own threads, and the observer
     * is closed.
     *
     * @return false if it was closed already
     */
    public boolean close(LongConsumer alsoUntil) {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        List<S> all = new ArrayList<>(members);
        for (S s : all) {
            s.beginClose();
        }
        long deadline = System.nanoTime() + closeTimeout.toNanos();
        for (S s : all) {
            s.awaitTermination(deadline);
        }
        alsoUntil.accept(deadline);
        observer.close();
        return true;
    }

    /**
     * Waits for a subscription's {@code thread} to end, until {@code deadlineNanos} at most, and
     * not at all when called on that thread; returns whether it has ended.
     */
    public static boolean awaitEnd(Thread thread, long deadlineNanos) {
        if (thread == Thread.currentThread()) {
            return false;
        }
        long left = deadlineNanos - System.nanoTime();
        try {
            if (left > 0) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
