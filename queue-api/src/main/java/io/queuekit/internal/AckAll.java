package io.queuekit.internal;

import io.queuekit.Delivery;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntBiFunction;

/**
 * {@link io.queuekit.MessageQueue#ackAll} of every store: its own deliveries acked together in one
 * call, any other one by one with its own {@code ack()}; a sharded store's, shard by shard. A
 * delivery already settled is skipped, as its {@code ack()} would skip it; if the call fails, the
 * deliveries it was to settle may settle again.
 */
public final class AckAll {
    private AckAll() {}

    /** How one store acks its own deliveries together. */
    public interface Together<D> {
        /** {@code d} as this store's own delivery, or null if it is another's. */
        D own(Delivery<?> d);

        /** Claims the settling of {@code d}; false if it is settled already. */
        boolean claim(D d);

        /** Gives back a claim whose ack failed. */
        void release(D d);

        /** Acks {@code mine} in one call; how many were still theirs to ack. */
        int ack(List<D> mine);
    }

    /** The deliveries' acks: the store's own together, others one by one; how many were settled. */
    public static <T, D> int together(Iterable<? extends Delivery<T>> deliveries, Together<D> store) {
        List<D> mine = new ArrayList<>();
        int others = 0;
        for (Delivery<T> d : copy(deliveries)) {
            D own = store.own(d);
            if (own == null) {
                others += d.ack() ? 1 : 0;
            } else if (store.claim(own)) {
                mine.add(own);
            }
        }
        if (mine.isEmpty()) {
            return others;
        }
        try {
            return store.ack(mine) + others;
        } catch (RuntimeException e) {
            mine.forEach(store::release);
            throw e;
        }
    }

    /**
     * The deliveries' acks on a sharded store: each shard's (as {@code shardOf} finds them, null for
     * none) through {@code ackAll} of that shard, in shard order, then any other one by one; a
     * failure on one shard leaves the acks of the shards before it made.
     */
    public static <T, S> int byShard(
            Iterable<? extends Delivery<T>> deliveries,
            List<S> shards,
            Function<Delivery<T>, S> shardOf,
            ToIntBiFunction<S, List<Delivery<T>>> ackAll) {
        IdentityHashMap<S, List<Delivery<T>>> byShard = new IdentityHashMap<>();
        List<Delivery<T>> others = new ArrayList<>();
        for (Delivery<T> d : copy(deliveries)) {
            S s = shardOf.apply(d);
            (s == null ? others : byShard.computeIfAbsent(s, k -> new ArrayList<>())).add(d);
        }
        int acked = 0;
        for (S s : shards) {
            List<Delivery<T>> mine = byShard.get(s);
            if (mine != null) {
                acked += ackAll.applyAsInt(s, mine);
            }
        }
        for (Delivery<T> d : others) {
            acked += d.ack() ? 1 : 0;
        }
        return acked;
    }

    /** A copy, so that a collection the caller changes meanwhile does not matter; nulls refused. */
    private static <T> List<Delivery<T>> copy(Iterable<? extends Delivery<T>> deliveries) {
        Objects.requireNonNull(deliveries, "deliveries");
        List<Delivery<T>> out = new ArrayList<>();
        for (Delivery<T> d : deliveries) {
            out.add(Objects.requireNonNull(d, "a delivery is null"));
        }
        return out;
    }
}
