package io.queuekit.redis.stream;

import io.queuekit.BroadcastListener;
import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import io.queuekit.internal.BroadcastDispatch;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Inbound;
import io.queuekit.internal.RateLimitedLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RedisStreamTopic#subscribe} subscription: a group {@code ~<random>} of its own, read by
 * one thread ({@code queuekit-<topic>-subscriber-<n>-reader}) that hands each batch to the
 * listener's thread ({@code queuekit-<topic>-subscriber-<n>}, a {@link BroadcastDispatch}) and
 * reads the next batch once the listener is through with this one. Each message is acked after the
 * listener returned or threw (a throw is logged and counted, and the subscription carries on with
 * the next message, as every broadcaster's does); what is not acked when the process dies stays
 * with the group, which the process no longer reads, until another topic object reclaims the group
 * once its heartbeat stopped ({@link Heartbeats}). Closing deletes the group with what it holds.
 *
 * @param <T> the payload type
 */
final class StreamSubscription<T> implements Subscription, BroadcastRuntime.Member {
    /** What the name of a subscription's group begins with; no durable group's can. */
    static final String PREFIX = "~";

    private static final Logger LOG = LoggerFactory.getLogger(StreamSubscription.class);
    private static final int BATCH = 100;
    private static final int MAX_HELD = 2 * BATCH + 2;

    private final RedisStreamTopic<T> topic;
    private final StreamGroup<T> group;
    private final BroadcastRuntime<StreamSubscription<T>> runtime;
    private final BroadcastDispatch<Delivery<T>, T> dispatch;
    private final Thread reader;
    private final long blockMillis;
    private final RateLimitedLog readFailures = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private final AtomicBoolean deleted = new AtomicBoolean();
    private volatile boolean closing;

    StreamSubscription(
            RedisStreamTopic<T> topic,
            StreamGroup<T> group,
            BroadcastRuntime<StreamSubscription<T>> runtime,
            BroadcastListener<? super T> listener) {
        this.topic = topic;
        this.group = group;
        this.runtime = runtime;
        String name = runtime.nextSubscriptionName();
        this.dispatch = new BroadcastDispatch<>(
                runtime,
                name,
                topic.name(),
                MAX_HELD,
                Long.MAX_VALUE,
                Delivery::payload,
                Delivery::headers,
                (channel, message, headers) -> listener.onMessage(message, headers),
                this::close);
        this.blockMillis = topic.blockTimeout().toMillis();
        this.reader = new Thread(this::read, name + "-reader");
        this.reader.setDaemon(true);
    }

    void start() {
        topic.heartbeats.add(group.name());
        dispatch.start();
        reader.start();
    }

    private void read() {
        while (!closing) {
            List<Delivery<T>> got;
            try {
                got = group.pollBatch(BATCH, blockMillis, TimeUnit.MILLISECONDS);
                readFailures.recovered("queuekit {}: reading the subscription works again", topic.name());
            } catch (InterruptedException e) {
                continue; // closing
            } catch (QueueClosedException e) {
                if (!closing) {
                    end("its group object was closed (the group was deleted through this topic object)");
                }
                return;
            } catch (RuntimeException e) {
                if (closing) {
                    continue;
                }
                if (groupDeleted()) {
                    end("its group " + group.name() + " was deleted");
                    return;
                }
                readFailures.failed("queuekit " + topic.name() + ": a subscription could not read; it tries again", e);
                pause();
                continue;
            }
            if (!got.isEmpty()) {
                handOver(got);
            }
        }
    }

    /** Whether the subscription's group is gone from Redis; false if that cannot be told now. */
    private boolean groupDeleted() {
        try {
            return !group.exists();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Ends the subscription from its reader, whose group is gone: a subscription cannot go on
     * without it (recreating it would skip what was published meanwhile without a word).
     */
    private void end(String why) {
        LOG.warn("queuekit {}: a subscription ends: {}; subscribe again to receive", topic.name(), why);
        close();
    }

    /** Hands a batch to the listener's thread, each message followed by its ack, and waits for it. */
    private void handOver(List<Delivery<T>> batch) {
        CountDownLatch done = new CountDownLatch(1);
        long arrived = System.nanoTime();
        for (Delivery<T> d : batch) {
            if (!offer(Inbound.message(d, null, 1, arrived)) || !offer(Inbound.event("the ack", () -> settle(d)))) {
                return;
            }
        }
        if (!offer(Inbound.event("the end of a batch", done::countDown))) {
            return;
        }
        try {
            while (!closing && !done.await(blockMillis, TimeUnit.MILLISECONDS)) {
                // the listener is still at it
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    /** On the listener's thread, after it had the message, returned or threw (or it could not be decoded). */
    private void settle(Delivery<T> d) {
        d.ack();
    }

    private boolean offer(Inbound<Delivery<T>> item) {
        try {
            while (!closing) {
                if (dispatch.offer(item, blockMillis, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
        return false;
    }

    private void pause() {
        try {
            Thread.sleep(blockMillis);
        } catch (InterruptedException e) {
            // closing
        }
    }

    @Override
    public boolean isActive() {
        return !closing;
    }

    @Override
    public void beginClose() {
        if (closing) {
            return;
        }
        closing = true;
        dispatch.beginClose();
        reader.interrupt();
    }

    /** Waits for both threads, then deletes the group (once), whatever the wait came to. */
    @Override
    public void awaitTermination(long deadlineNanos) {
        BroadcastRuntime.awaitEnd(reader, deadlineNanos);
        dispatch.awaitTermination(deadlineNanos);
        if (deleted.compareAndSet(false, true)) {
            topic.heartbeats.remove(group.name());
            try {
                topic.deleteStored(group.name());
            } catch (RuntimeException e) {
                LOG.warn(
                        "queuekit {}: could not delete the group {} of a closed subscription; delete it with"
                                + " deleteGroup",
                        topic.name(),
                        group.name(),
                        e);
            }
        }
    }

    /** {@inheritDoc} Waits for the listener's current call, and deletes the subscription's group. */
    @Override
    public void close() {
        beginClose();
        awaitTermination(System.nanoTime() + runtime.closeTimeout().toNanos());
        runtime.unregister(this);
    }

    @Override
    public String toString() {
        return "Subscription[" + topic.name() + " " + group.name() + (closing ? ", closed" : "") + "]";
    }
}
