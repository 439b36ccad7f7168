package io.queuekit.redis.stream;

import io.queuekit.Delivery;
import io.queuekit.internal.AckAll;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.ShardedStore;
import io.queuekit.redis.internal.Sharding;
import java.util.Collection;
import java.util.List;

/**
 * One group of a sharded topic: the group on each shard's stream is a {@link GroupStore} of its
 * own (its own leases, retries and dead letters under the shard's tag), and receiving goes round
 * them ({@link ShardedStore#receive}), waiting on one shard's stream at a time as a
 * {@link GroupStore} waits ({@code XREAD BLOCK} after what its claim saw); a delivery settles on
 * its own shard.
 */
final class ShardedGroupStore<T> extends ShardedStore<T, GroupStore<T>> {

    ShardedGroupStore(RedisContext<T> group, List<GroupStore<T>> shards, Sharding<T> sharding) {
        super(group, shards, sharding);
    }

    /** One claim on the shard, which says when its next retry or lease falls due. */
    @Override
    protected Taken<T> take(int index, int max) {
        return shard(index).take(max);
    }

    /**
     * A wait on the shard's stream after what this thread's take there just saw (rule 12), then a
     * claim when a message came or the shard's next retry or lease fell due.
     */
    @Override
    protected List<Delivery<T>> await(int index, int max, long timeoutNanos) throws InterruptedException {
        return shard(index).await(max, timeoutNanos);
    }

    /** The shard's own receive: a claim, then waits as {@link #await} does. */
    @Override
    protected List<Delivery<T>> takeThenAwait(int index, int max, long timeoutNanos) throws InterruptedException {
        return shard(index).receive(max, timeoutNanos);
    }

    /** Acks each shard's deliveries in one script per shard, others one by one ({@link AckAll#byShard}). */
    int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.byShard(
                deliveries,
                shards(),
                d -> d instanceof StreamDelivery<T> sd && shards().contains(sd.store()) ? sd.store() : null,
                GroupStore::ackAll);
    }
}
