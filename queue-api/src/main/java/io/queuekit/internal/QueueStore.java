package io.queuekit.internal;

import io.queuekit.Delivery;
import io.queuekit.QueueStats;
import java.util.List;

/**
 * Where one queue keeps its messages, as its {@link QueueRuntime} needs it: the few things the
 * runtime asks of storage, which every transport's store (the in-memory engine, the Redis list
 * and zset stores) implements for real. Sending and settling stay with the store and its
 * deliveries: their shape differs by storage, and the SPI already says what they promise.
 */
public interface QueueStore<T> {

    /**
     * Up to {@code max} (1 to {@link Checks#batchSize}'s limit) deliveries, waiting up to
     * {@code timeoutNanos} for the first (zero: not at all, and no interrupt is checked); empty if
     * none came. Through the store's {@link Receiver}.
     *
     * @throws InterruptedException if interrupted on entry or while waiting
     */
    List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException;

    /** The queue's counts as of now; read by {@code stats()} and the metrics gauges. */
    QueueStats stats();

    /**
     * Stores whether the queue is paused, where every queue object on it reads it (for a sharded
     * queue, on every shard; a resume clears the first shard last, which is the one a paused
     * object re-reads, see {@link Pausing}).
     */
    void storePaused(boolean paused);

    /** Whether the queue is paused, as stored now: one round trip on a server. */
    boolean paused();

    /** The raw dead letters, which the runtime checks arguments for and decodes. */
    DeadLetterStore<T> deadLetters();

    /**
     * Makes the lease keeper of one {@code consume} call: how held deliveries keep their leases
     * (renewed on the server's clock, held on the queue's clock, or nothing where nothing is leased).
     */
    LeaseKeeper leaseKeeper();

    /**
     * How this store's managed consumers ack what they finished together with their next fetch; null where a store has nothing better than an ack followed by a poll,
     * which the consumer then makes itself.
     */
    default AckingFetch<T> ackingFetch() {
        return null;
    }

    /**
     * Closing has begun and receiving is refused: wake the receivers blocked in the store, so they
     * see it. A store whose receivers block on the server notices within its block timeout and
     * has nothing to do here.
     */
    void receivingStopped();

    /** The queue is closed and refuses every call: release what the store holds outside itself. */
    void closed();
}
