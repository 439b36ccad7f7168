package io.queuekit.inmemory;

import io.queuekit.BroadcastListener;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.LeaseKeeper;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription of an {@link InMemoryTopic}: a group {@code ~<n>} of its own, read by one named
 * thread that hands each message to the listener inside the observations and acks it once the
 * listener returns or throws, holding the message's lease meanwhile.
 *
 * <p>Easy to get wrong: ending it goes through {@link InMemoryTopic#endSubscription}, which flips
 * {@link #isActive()} and deletes the group under the topic's lock, so no publish stores a message
 * for a subscription that has ended; its own thread ends it too, so it must not wait for itself.
 *
 * @param <T> the payload type
 */
final class TopicSubscription<T> implements Subscription, BroadcastRuntime.Member {
    /** The topic's logger: what a subscription reports is read where the topic's lines are. */
    private static final Logger LOG = LoggerFactory.getLogger(InMemoryTopic.class);
    /** How long a listener call keeps its message's lease: a managed consumer's default limit. */
    private static final Duration HOLD_LIMIT = ConsumeOptions.defaults().leaseRenewalLimit();

    private final InMemoryTopic<T> topic;
    private final TopicGroup group;
    private final Engine<T> engine;
    /** Keeps the lease of the message in hand, so a long listener call does not get it a second time. */
    private final LeaseKeeper leases;

    private final BroadcastListener<? super T> listener;
    private final Thread thread;
    /** Set false only by {@link #end()}, under the topic's lock. */
    private volatile boolean active = true;

    TopicSubscription(
            InMemoryTopic<T> topic, TopicGroup group, BroadcastListener<? super T> listener, String threadName) {
        this.topic = topic;
        this.group = group;
        this.listener = listener;
        this.engine = new Engine<>(
                topic.settings().forGroup(group.name, true),
                InMemoryTopic.GROUP_SEMANTICS,
                group.contents,
                group.namespace);
        this.leases = engine.leaseKeeper();
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true); // a forgotten subscription must not keep the JVM alive
    }

    TopicGroup group() {
        return group;
    }

    void start() {
        thread.start();
    }

    /** Marks this subscription ended; false if it had ended already. Under the topic's lock. */
    boolean end() {
        if (!active) {
            return false;
        }
        active = false;
        return true;
    }

    private void run() {
        try {
            while (active) {
                Delivery<T> d;
                try {
                    d = engine.runtime().take();
                } catch (InterruptedException e) {
                    continue; // closing interrupts to wake this thread
                } catch (QueueClosedException e) {
                    break; // closed, or its group was deleted
                }
                if (!active) {
                    break;
                }
                deliver(d);
                if (active) {
                    Thread.interrupted(); // a listener that left its thread interrupted must not stop the next call
                }
            }
        } finally {
            beginClose();
        }
    }

    private void deliver(Delivery<T> d) {
        T value;
        try {
            value = d.payload();
        } catch (RuntimeException e) {
            topic.listenerFailed(thread.getName(), "could not decode a message; it is skipped", e);
            settle(d);
            return;
        }
        Headers h = d.headers();
        long start = System.nanoTime();
        Duration waited =
                Duration.between(d.enqueuedAt(), topic.settings().clock.instant());
        topic.observer().delivered(waited.isNegative() ? Duration.ZERO : waited);
        boolean threw = false;
        LeaseKeeper.Hold hold = leases.hold(d, HOLD_LIMIT);
        try {
            topic.settings().observations.handling(topic.destination(), h, () -> listener.onMessage(value, h));
        } catch (Throwable t) {
            threw = true;
            if (active || !(t instanceof InterruptedException)) {
                topic.listenerFailed(thread.getName(), "the listener threw; the subscription carries on", t);
            }
        } finally {
            hold.release();
        }
        topic.observer().handled(Duration.ofNanos(System.nanoTime() - start), threw);
        settle(d);
    }

    /** Acks: the listener had the message; a subscription closing meanwhile has nothing to ack. */
    private static <T> void settle(Delivery<T> d) {
        try {
            d.ack();
        } catch (QueueClosedException e) {
            // closing deletes the subscription's group, with what it held
        }
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public void close() {
        beginClose();
        awaitTermination(System.nanoTime() + InMemoryTopic.CLOSE_TIMEOUT.toNanos());
    }

    /** Stops handing out, deletes the group, and wakes the thread; a listener call in progress finishes. */
    @Override
    public void beginClose() {
        if (!topic.endSubscription(this)) {
            return;
        }
        if (Thread.currentThread() != thread) {
            thread.interrupt();
        }
        leases.close();
        engine.runtime().close();
    }

    @Override
    public void awaitTermination(long deadlineNanos) {
        if (!BroadcastRuntime.awaitEnd(thread, deadlineNanos) && thread != Thread.currentThread()) {
            LOG.warn(
                    "{}: the listener was still running when close() stopped waiting; its thread ends when the "
                            + "listener returns",
                    thread.getName());
        }
    }

    @Override
    public String toString() {
        return "Subscription[" + thread.getName() + (active ? "" : ", closed") + "]";
    }
}
