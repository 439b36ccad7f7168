package io.queuekit.redis.internal;

import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.QueueStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One queue stored in several shards, each a whole queue's storage under a hash tag of its own
 * (its own leases, retries, dead letters and layout check), all attached to one runtime: what
 * both Redis queues' sharded forms share. Counts are the shards' sums, dead letters all the
 * shards' ({@link ShardedDeadLetters}), and receiving goes round the shards ({@link #receive}).
 *
 * <p>There is no acking fetch ({@link QueueStore#ackingFetch()}): the next fetch may be on
 * another shard than the ack, and on the cluster clients sharding is for, none could be made.
 *
 * @param <T> the payload type
 * @param <S> the shards' store
 */
public abstract class ShardedStore<T, S extends QueueStore<T>> implements QueueStore<T> {

    /**
     * What a take from one shard got, and when that shard's next message or lease falls due, as far
     * as the take learnt it: {@code nextEventMillis} from now, or -1 if it does not say.
     */
    public record Taken<T>(List<Delivery<T>> deliveries, long nextEventMillis) {}

    private final RedisContext<T> queue;
    private final List<S> shards;
    private final Sharding<T> sharding;
    private final long blockNanos;
    private final DeadLetterStore<T> dead;
    /** Where the next receive starts, so that receivers start at different shards. */
    private final AtomicInteger rotation = new AtomicInteger();

    /**
     * @param queue the queue's context (its runtime and settings)
     * @param shards one store per shard, in shard order
     */
    protected ShardedStore(RedisContext<T> queue, List<S> shards, Sharding<T> sharding) {
        if (shards.size() != sharding.count()) {
            throw new IllegalArgumentException(shards.size() + " shards, not " + sharding.count());
        }
        this.queue = queue;
        this.shards = List.copyOf(shards);
        this.sharding = sharding;
        this.blockNanos = queue.settings().blockTimeout().toNanos();
        List<DeadLetterStore<T>> deadLetters = new ArrayList<>(shards.size());
        for (S s : shards) {
            deadLetters.add(s.deadLetters());
        }
        this.dead = new ShardedDeadLetters<>(deadLetters, sharding::home);
    }

    /** The shards' stores, in shard order. */
    protected final List<S> shards() {
        return shards;
    }

    protected final S shard(int index) {
        return shards.get(index);
    }

    protected final Sharding<T> sharding() {
        return sharding;
    }

    /** The queue's context: its runtime and settings. */
    protected final RedisContext<T> queue() {
        return queue;
    }

    // ---- receiving

    /** Up to {@code max} deliveries from shard {@code index}, without waiting. */
    protected abstract Taken<T> take(int index, int max);

    /**
     * Up to {@code max} deliveries from shard {@code index}, waiting up to {@code timeoutNanos}
     * (more than zero) in Redis for the first; the caller has just taken what was ready there.
     */
    protected abstract List<Delivery<T>> await(int index, int max, long timeoutNanos) throws InterruptedException;

    /**
     * Up to {@code max} deliveries, waiting up to {@code timeoutNanos} (zero: not at all, and
     * interrupts are not checked) for the first; an interrupt on entry takes nothing. A receive first takes, without waiting, from one
     * shard after another, starting at a different shard on each call, until it has {@code max}
     * or has tried every shard. If it found nothing and may wait, it waits in Redis on one shard
     * for at most one block timeout (or the time left), then goes round again: so an idle receiver
     * reaches a message on any shard within about one block timeout, and costs one take per shard
     * per block timeout. It waits on the shard whose next message or lease falls due first, where
     * the takes said so and that is within a block timeout, else on the next shard in its turn.
     *
     * <p>A shard that fails is passed over while others have messages: the deliveries taken are
     * returned, never dropped. A receive that found nothing throws the first failure.
     */
    public final List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        if (timeoutNanos > 0 && Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + timeoutNanos;
        int start = rotation.getAndIncrement();
        for (int round = 0; ; round++) {
            int first = Math.floorMod(start + round, shards.size());
            List<Delivery<T>> got = new ArrayList<>();
            int soonest = sweep(first, max, got);
            if (!got.isEmpty() || timeoutNanos == 0) {
                return got;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return got;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            got = await(soonest >= 0 ? soonest : first, max, Math.min(left, blockNanos));
            if (!got.isEmpty()) {
                return got;
            }
        }
    }

    /**
     * Takes from every shard from {@code first} on, until {@code max} are in {@code into}. Returns
     * the shard whose next event falls due first within a block timeout, or -1.
     */
    private int sweep(int first, int max, List<Delivery<T>> into) {
        RuntimeException failed = null;
        int soonest = -1;
        long soonestMillis = TimeUnit.NANOSECONDS.toMillis(blockNanos);
        for (int i = 0; i < shards.size() && into.size() < max; i++) {
            int index = (first + i) % shards.size();
            if (!into.isEmpty() && queue.runtime().isClosing()) {
                return -1; // what was taken goes to the caller, who can still settle it
            }
            Taken<T> t;
            try {
                t = take(index, max - into.size());
            } catch (QueueClosedException e) {
                if (into.isEmpty()) {
                    throw e;
                }
                return -1;
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
                continue;
            }
            into.addAll(t.deliveries());
            if (t.nextEventMillis() >= 0 && t.nextEventMillis() < soonestMillis) {
                soonest = index;
                soonestMillis = t.nextEventMillis();
            }
        }
        if (into.isEmpty() && failed != null) {
            throw failed;
        }
        return soonest;
    }

    // ---- the QueueStore

    /** The sums of the shards' counts: one round trip per shard. */
    @Override
    public QueueStats stats() {
        long ready = 0;
        long inFlight = 0;
        long delayed = 0;
        long deadCount = 0;
        for (S s : shards) {
            QueueStats st = s.stats();
            ready += st.ready();
            inFlight += st.inFlight();
            delayed += st.delayed();
            deadCount += st.dead();
        }
        return new QueueStats(ready, inFlight, delayed, deadCount);
    }

    @Override
    public final DeadLetterStore<T> deadLetters() {
        return dead;
    }

    /** Every shard's deliveries keep their leases alike: the first shard's keeper serves all. */
    @Override
    public final LeaseKeeper leaseKeeper() {
        return shards.get(0).leaseKeeper();
    }

    @Override
    public final void receivingStopped() {
        for (S s : shards) {
            s.receivingStopped();
        }
    }

    @Override
    public final void closed() {
        for (S s : shards) {
            s.closed();
        }
    }

    /**
     * The first {@code limit} of lists each already in {@code order}, merged in that order; ties
     * in the order of the lists.
     */
    public static <E> List<E> merge(List<List<E>> lists, Comparator<? super E> order, int limit) {
        int[] at = new int[lists.size()];
        List<E> out = new ArrayList<>();
        while (out.size() < limit) {
            int best = -1;
            for (int i = 0; i < lists.size(); i++) {
                if (at[i] < lists.get(i).size() && (best < 0
                        || order.compare(lists.get(i).get(at[i]), lists.get(best).get(at[best])) < 0)) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            out.add(lists.get(best).get(at[best]++));
        }
        return out;
    }
}
