package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.AckAll;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.ShardedStore;
import io.queuekit.redis.internal.Sharding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A list queue stored in shards, each a {@link ListMode} of its own under its hash tag (its own
 * ready list, flight, retries, dead letters and upkeep), all of one guarantee. Sends go to one
 * shard per message (in turn, or by key), a batch without a key to one shard whole; receiving goes
 * round the shards ({@link ShardedStore#receive}); a delivery settles on its own shard.
 */
final class ListShards<T> extends ShardedStore<T, ListMode<T>> implements ListStorage<T> {

    ListShards(RedisContext<T> queue, List<ListMode<T>> shards, Sharding<T> sharding) {
        super(queue, shards, sharding);
    }

    /**
     * Stores the payloads: without a key, all in the next shard, in one LPUSH; by key, one LPUSH per
     * shard, in shard order, after every payload was encoded and every key computed.
     */
    @Override
    public List<MessageId> send(List<? extends T> payloads, Headers headers) {
        queue().runtime().checkOpen();
        if (!sharding().keyed()) {
            return shard(sharding().next()).send(payloads, headers);
        }
        if (payloads.size() == 1) {
            return shard(sharding().of(payloads.get(0))).send(payloads, headers);
        }
        List<byte[]> encoded = queue().encodeAll(payloads, headers);
        int[] homes = sharding().ofEach(payloads);
        MessageId[] ids = new MessageId[payloads.size()];
        for (int s = 0; s < shards().size(); s++) {
            List<Integer> at = new ArrayList<>();
            List<byte[]> part = new ArrayList<>();
            for (int i = 0; i < homes.length; i++) {
                if (homes[i] == s) {
                    at.add(i);
                    part.add(encoded.get(i));
                }
            }
            if (!part.isEmpty()) {
                List<MessageId> stored = shard(s).store(part);
                for (int j = 0; j < at.size(); j++) {
                    ids[at.get(j)] = stored.get(j);
                }
            }
        }
        return Arrays.asList(ids);
    }

    @Override
    protected Taken<T> take(int index, int max) {
        try {
            return new Taken<>(shard(index).receive(max, 0), -1);
        } catch (InterruptedException e) {
            throw new AssertionError("a receive that does not wait checks no interrupt", e);
        }
    }

    @Override
    protected List<Delivery<T>> await(int index, int max, long timeoutNanos) throws InterruptedException {
        return shard(index).await(max, timeoutNanos);
    }

    /** The shard's own receive: a batch take first when {@code max} is more than one, as unsharded. */
    @Override
    protected List<Delivery<T>> takeThenAwait(int index, int max, long timeoutNanos) throws InterruptedException {
        return shard(index).receive(max, timeoutNanos);
    }

    /** Acks each shard's deliveries in one script per shard, others one by one ({@link AckAll#byShard}). */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.byShard(
                deliveries,
                shards(),
                d -> d instanceof EnvelopeDelivery<T> e && shards().contains(e.mode()) ? e.mode() : null,
                ListMode::ackAll);
    }

    /**
     * The next {@code max} of every shard, merged oldest first by enqueue time (an element with
     * none, which the queue did not write, first); each shard's own order kept.
     */
    @Override
    public List<WaitingMessage<T>> peek(int max) {
        List<List<WaitingMessage<T>>> each = new ArrayList<>(shards().size());
        for (ListMode<T> m : shards()) {
            each.add(m.peek(max));
        }
        return merge(
                each,
                Comparator.comparing(
                        WaitingMessage::enqueuedAt, Comparator.nullsFirst(Comparator.<Instant>naturalOrder())),
                max);
    }
}
