package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.QueueStore;
import io.queuekit.redis.WaitingMessage;
import java.util.Collection;
import java.util.List;

/**
 * Where a {@link RedisListQueue} keeps its messages: one {@link ListMode} (unsharded), or
 * {@link ListShards} over one per shard.
 */
interface ListStorage<T> extends QueueStore<T> {

    /**
     * Stores the payloads (already checked for nulls), each with {@code headers} (the sender's
     * with those its observations added); their ids, in order.
     */
    List<MessageId> send(List<? extends T> payloads, Headers headers);

    /**
     * Up to {@code max} deliveries, waiting up to {@code timeoutNanos} (zero: not at all, and
     * interrupts are not checked) for the first; empty if none came.
     */
    @Override
    List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException;

    /** Acks several deliveries; how many were settled. */
    int ackAll(Collection<? extends Delivery<T>> deliveries);

    /** The next {@code max} messages to be taken, oldest first; see {@link RedisListQueue#peek}. */
    List<WaitingMessage<T>> peek(int max);
}
