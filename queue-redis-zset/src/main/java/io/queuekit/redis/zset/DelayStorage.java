package io.queuekit.redis.zset;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.QueueStore;
import io.queuekit.redis.WaitingMessage;
import java.util.Collection;
import java.util.List;

/**
 * Where a {@link RedisDelayQueue} keeps its messages: one {@link ZsetStore} (unsharded), or
 * {@link ZsetShards} over one per shard.
 */
interface DelayStorage<T> extends QueueStore<T> {

    /**
     * Stores payloads with generated ids, each with {@code headers} (the sender's with those its
     * observations added), due {@code millis} after now on the server's clock (or at
     * {@code millis} when {@code absolute}).
     */
    List<MessageId> send(List<? extends T> payloads, Headers headers, boolean absolute, long millis);

    /**
     * Stores payloads with generated ids, each with the headers at its index and due at its own
     * time in {@code dueMillis} (epoch ms).
     */
    List<MessageId> sendEach(List<? extends T> payloads, List<Headers> headers, long[] dueMillis);

    /** Stores a payload with its headers under a caller's id unless that id is stored; true if stored. */
    boolean sendWithId(MessageId id, T payload, Headers headers, boolean absolute, long millis);

    /** Removes a waiting message; true if it did. */
    boolean cancel(MessageId id);

    /** Acks several deliveries; how many were settled. */
    int ackAll(Collection<? extends Delivery<T>> deliveries);

    /** The first {@code max} waiting messages, due or not, in the order they will be handed out. */
    List<WaitingMessage<T>> peek(int max);
}
