package io.queuekit.redis.internal;

import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.QueueStore;
import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

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
    /** Longest a receiver goes straight back to its own shard while others have no one waiting. */
    private static final Duration COVER = Duration.ofMillis(20);
    /** Where the next receive starts, so that receivers start at different shards. */
    private final AtomicInteger rotation = new AtomicInteger();
    /** How many receivers wait in Redis on each shard now. */
    private final AtomicIntegerArray waiting;
    /** Longest a receiver goes straight back to its own shard while others have no one waiting. */
    private final long coverNanos;
    /** Each receiving thread's own: where it last got a message by waiting, and where to wait next. */
    private final ThreadLocal<Rounds> rounds = ThreadLocal.withInitial(Rounds::new);

    private final Receiver<T, Receiver.CarriedAck> receiver;

    /** One receiving thread's way round the shards. */
    private static final class Rounds {
        /** The shard it last got a message from by waiting, or -1. */
        int home = -1;

        long sweptAt;
        /** The shard its next wait is on. */
        int next = -1;
        /** Whether that wait goes straight back to its home, taking first: for at most {@code homeNanos}. */
        boolean homeFirst;

        long homeNanos;
    }

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
        this.waiting = new AtomicIntegerArray(shards.size());
        this.coverNanos = Math.min(blockNanos, COVER.toNanos());
        this.receiver = new Receiver<>(
                queue.runtime(),
                new Round(),
                Receiver.takingWaits(
                        System::nanoTime, queue.settings().blockTimeout().toMillis(), max -> !homeFirst(), true));
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
     * Up to {@code max} deliveries from shard {@code index}, taking what is ready there first, as
     * a batch when {@code max} is more than one, then waiting as {@link #await} does: for a
     * receiver going straight back to its shard, which has not just taken from it. By default
     * {@link #await}, for shards whose wait takes what is ready first.
     */
    protected List<Delivery<T>> takeThenAwait(int index, int max, long timeoutNanos) throws InterruptedException {
        return await(index, max, timeoutNanos);
    }

    /**
     * Up to {@code max} deliveries, waiting up to {@code timeoutNanos} (zero: not at all, and
     * interrupts are not checked) for the first; an interrupt on entry takes nothing. A receive first takes, without waiting, from one
     * shard after another, starting at a different shard on each call, until it has {@code max}
     * or has tried every shard. If it found nothing and may wait, it waits in Redis on one shard
     * for at most one block timeout (or the time left), then goes round again: so an idle receiver
     * reaches a message on any shard within about one block timeout, and costs one take per shard
     * per block timeout. It waits on the shard whose next message or lease falls due first, where
     * the takes said so and that is within a block timeout, else on a shard with the fewest
     * receivers waiting, so that waiting receivers spread over the shards.
     *
     * <p>Under load the takes would mostly find nothing: a receiver that has just been handed a
     * message from a shard, and whose own last takes are less than a block timeout old, goes
     * straight back to that shard without the takes, receiving there as an unsharded queue does
     * ({@link #takeThenAwait}: a batch is taken whole): for up to a block timeout while every
     * other shard has a receiver waiting on it, else for at most 20 ms before it takes from every
     * shard again. Each message then costs about one wait, as on an unsharded queue, and a message
     * on a shard no receiver waits on is taken within about 20 ms of a receiver being free.
     *
     * <p>A shard that fails is passed over while others have messages: the deliveries taken are
     * returned, never dropped. A receive that found nothing throws the first failure.
     */
    @Override
    public final List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiver.receive(max, timeoutNanos, NO_ACK);
    }

    private static final Receiver.CarriedAck NO_ACK = () -> {};

    /**
     * Whether a receive of this thread goes straight back to its home shard rather than round the
     * shards first: it got a message there by waiting, and its last round is less than a block
     * timeout old. Then it waits there for up to a block timeout while every other shard has a
     * receiver waiting, else only briefly.
     */
    private boolean homeFirst() {
        Rounds me = rounds.get();
        me.homeFirst = me.home >= 0 && System.nanoTime() - me.sweptAt < blockNanos;
        if (me.homeFirst) {
            me.next = me.home;
            me.homeNanos = othersWaited(me.home) ? blockNanos : coverNanos;
        }
        me.home = -1;
        return me.homeFirst;
    }

    /** A round of takes from every shard, and a wait on one shard. */
    private final class Round implements Receiver.Store<T, Receiver.CarriedAck> {
        @Override
        public Receiver.Claimed<T> claim(int max, Receiver.CarriedAck ack) {
            Rounds me = rounds.get();
            me.home = -1;
            int first = Math.floorMod(rotation.getAndIncrement(), shards.size());
            List<Delivery<T>> got = new ArrayList<>();
            int soonest = sweep(first, max, got, me);
            me.sweptAt = System.nanoTime();
            me.next = soonest >= 0 ? soonest : leastWaited(first);
            return new Receiver.Claimed<>(got, WakeUps.NONE, WakeUps.NONE);
        }

        @Override
        public Receiver.Woken<T> block(int max, long millis, Receiver.CarriedAck ack) throws InterruptedException {
            Rounds me = rounds.get();
            boolean homeFirst = me.homeFirst;
            me.homeFirst = false;
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            int on = me.next;
            List<Delivery<T>> got = waitOn(on, max, homeFirst ? Math.min(nanos, me.homeNanos) : nanos, homeFirst);
            if (got.isEmpty()) {
                return Receiver.Woken.nothing();
            }
            me.home = on;
            return Receiver.Woken.took(got);
        }

        @Override
        public long pop() {
            return WakeUps.NONE;
        }

        @Override
        public void handOn(long millis) {}
    }

    /**
     * {@link #await} on shard {@code index}, or {@link #takeThenAwait} if {@code takeFirst}, counted
     * among the receivers waiting there.
     */
    private List<Delivery<T>> waitOn(int index, int max, long timeoutNanos, boolean takeFirst)
            throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        waiting.incrementAndGet(index);
        try {
            return takeFirst ? takeThenAwait(index, max, timeoutNanos) : await(index, max, timeoutNanos);
        } finally {
            waiting.decrementAndGet(index);
        }
    }

    /** Whether every shard but {@code home} has a receiver waiting on it. */
    private boolean othersWaited(int home) {
        for (int i = 0; i < shards.size(); i++) {
            if (i != home && waiting.get(i) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The shard with the fewest receivers waiting, looking from {@code first} on. */
    private int leastWaited(int first) {
        int best = first;
        for (int i = 1; i < shards.size(); i++) {
            int index = (first + i) % shards.size();
            if (waiting.get(index) < waiting.get(best)) {
                best = index;
            }
        }
        return best;
    }

    /**
     * Takes from every shard from {@code first} on, until {@code max} are in {@code into}. Returns
     * the shard whose next event falls due first within a block timeout, or -1.
     */
    private int sweep(int first, int max, List<Delivery<T>> into, Rounds me) {
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
            if (!t.deliveries().isEmpty()) {
                me.home = index; // the receiver comes back here first
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
        boolean paused = false;
        for (S s : shards) {
            QueueStats st = s.stats();
            ready += st.ready();
            inFlight += st.inFlight();
            delayed += st.delayed();
            deadCount += st.dead();
            paused |= st.paused();
        }
        return new QueueStats(ready, inFlight, delayed, deadCount, paused);
    }

    /**
     * Pauses every shard from the first, or resumes every shard from the last: so the first shard,
     * which a paused object re-reads ({@link #paused()}), is paused first and resumed last, and an
     * object that reads it resumed finds every shard resumed.
     */
    @Override
    public final void storePaused(boolean paused) {
        for (int i = 0; i < shards.size(); i++) {
            shards.get(paused ? i : shards.size() - 1 - i).storePaused(paused);
        }
    }

    /** The first shard's pause: one round trip. */
    @Override
    public final boolean paused() {
        return shards.get(0).paused();
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
                if (at[i] < lists.get(i).size()
                        && (best < 0
                                || order.compare(
                                                lists.get(i).get(at[i]),
                                                lists.get(best).get(at[best]))
                                        < 0)) {
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
