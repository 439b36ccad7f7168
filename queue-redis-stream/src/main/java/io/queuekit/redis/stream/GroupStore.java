package io.queuekit.redis.stream;

import io.queuekit.Delivery;
import io.queuekit.QueueStats;
import io.queuekit.internal.AckAll;
import io.queuekit.internal.AckingFetch;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.QueueStore;
import io.queuekit.internal.Receiver;
import io.queuekit.redis.internal.PauseKey;
import io.queuekit.redis.internal.PendingAck;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.ShardedStore;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.XReadParams;

/**
 * One consumer group's operations on the topic's stream ({@code includes/storage.lua}): claim under
 * a lease fenced by this object's consumer name and the entry's delivery count, settle, count,
 * pause. Each is one script. Between claims a receiver waits in {@code XREAD BLOCK} on the stream
 * after the last entry its claim saw ({@link StreamWaits}), which returns at once for an entry
 * published since.
 *
 * @param <T> the payload type
 */
final class GroupStore<T> implements QueueStore<T> {
    private final RedisContext<T> group;
    private final String label;
    private final byte[] groupName;
    private final byte[] consumer;
    private final QueueMetrics.Observer observer;
    private final byte[] lease;
    private final byte[] maxAttempts;
    private final byte[] retention;
    private final StreamScripts.Claim claim;
    private final StreamScripts.Ack ack;
    private final StreamScripts.Retry retry;
    private final StreamScripts.Renew renew;
    private final StreamScripts.Bury bury;
    private final StreamScripts.Info info;
    private final StreamScripts.Leave leave;
    private final DeadLetterStore<T> dead;
    private final ShardIds ids;
    private final PauseKey pauseKey;
    private final Receiver<T, PendingAck> receiver;
    private final UnifiedJedis jedis;
    private final String streamKey;
    private final String waitLabel;
    /** What this thread's last claim saw. */
    private final ThreadLocal<Seen> seen = ThreadLocal.withInitial(Seen::new);
    /** A sharded group's waits on this shard, right after a take here: a wait first. */
    private final Receiver<T, PendingAck> awaiting;
    /** Whether this is one shard of a sharded group, whose claims leave a seed for {@link #await}. */
    private final boolean shard;

    GroupStore(RedisContext<T> group, String groupName, String consumer) {
        this.group = group;
        this.label = group.label();
        this.groupName = QueueScript.text(groupName);
        this.consumer = QueueScript.text(consumer);
        this.observer = group.runtime().observer();
        long leaseMillis = group.settings().visibilityTimeout().toMillis();
        this.lease = QueueScript.num(leaseMillis);
        this.maxAttempts = QueueScript.num(group.settings().maxAttempts());
        this.retention = QueueScript.num(group.settings().deadLetterRetention());
        this.claim = new StreamScripts.Claim(group);
        this.ack = new StreamScripts.Ack(group);
        this.retry = new StreamScripts.Retry(group);
        this.renew = new StreamScripts.Renew(group);
        this.bury = new StreamScripts.Bury(group);
        this.info = new StreamScripts.Info(group);
        this.leave = new StreamScripts.Leave(group);
        this.ids = new ShardIds(group.idSuffix());
        this.dead = ids.deadLetters(group.deadLetterStore());
        this.shard = !group.idSuffix().isEmpty();
        this.pauseKey = new PauseKey(group);
        this.jedis = group.client();
        this.streamKey = group.settings().keys().key("ready");
        this.waitLabel = label + ": wait";
        this.receiver = new Receiver<>(
                group.runtime(),
                new Waits(),
                new StreamWaits(
                        System::nanoTime, group.settings().blockTimeout().toMillis()));
        this.awaiting = new Receiver<>(
                group.runtime(),
                new Waits(),
                new StreamWaits(
                        System::nanoTime, group.settings().blockTimeout().toMillis(), () -> {
                            Seen me = seen.get();
                            StreamWaits.Seed s = me.taken;
                            me.taken = null;
                            return s;
                        }));
    }

    /** What one thread's last claim saw. */
    private static final class Seen {
        /** The stream's last entry: where the thread's wait reads after; null before any claim. */
        String lastId;

        /** Of a shard: the claim, for an {@link #await} right after a {@link #take}; used once. */
        StreamWaits.Seed taken;
    }

    String label() {
        return label;
    }

    /** How this store's ids are handed out: with its shard's suffix on a sharded topic. */
    ShardIds ids() {
        return ids;
    }

    // ---- receiving

    private StreamScripts.Claim.Result claim(int max, List<Delivery<T>> into, PendingAck pending) {
        group.runtime().checkReceiving();
        StreamScripts.Claim.Result r = pending.inside(
                acks -> claim.parse(claim.queueScript()
                        .run(claim.args(groupName, consumer, max, lease, maxAttempts, retention, acks))),
                StreamScripts.Claim.Result::acked);
        for (StreamScripts.Claim.Claimed c : r.claimed()) {
            into.add(new StreamDelivery<>(this, c));
            observer.delivered(Duration.ofMillis(Math.max(0, r.nowMillis() - c.enqueuedMillis())));
        }
        if (r.paused()) {
            group.runtime().pausing().learned(true);
        }
        if (r.reaped() > 0) {
            observer.redelivered(r.reaped());
        }
        for (long i = 0; i < r.buried(); i++) {
            observer.deadLettered();
        }
        Seen me = seen.get();
        me.lastId = r.lastStreamId();
        if (shard) {
            me.taken = StreamWaits.Seed.of(System.nanoTime(), r.nowMillis(), r.nextEventMillis());
        }
        return r;
    }

    /**
     * Of one shard of a sharded group: one claim without waiting (none while the object knows it is
     * paused), and in how many milliseconds this shard's next retry or lease falls due as the claim
     * saw it (-1 if none or no claim ran). An {@link #await} on this thread right after it begins
     * with the wait.
     */
    ShardedStore.Taken<T> take(int max) {
        Seen me = seen.get();
        me.taken = null;
        List<Delivery<T>> got;
        try {
            got = receiver.receive(batch(max), 0, PendingAck.none());
        } catch (InterruptedException e) {
            throw new AssertionError("a receive that does not wait checks no interrupt", e);
        }
        StreamWaits.Seed s = me.taken;
        return new ShardedStore.Taken<>(got, s == null ? -1 : s.untilEventMillis());
    }

    /**
     * Of one shard of a sharded group, right after a {@link #take} here on this thread: waits up to
     * {@code timeoutNanos} on the stream after what that take's claim saw (rule 12), then claims;
     * without such a take, claims first as {@link #receive} does.
     */
    List<Delivery<T>> await(int max, long timeoutNanos) throws InterruptedException {
        return awaiting.receive(batch(max), timeoutNanos, PendingAck.none());
    }

    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiver.receive(batch(max), timeoutNanos, PendingAck.none());
    }

    private int batch(int max) {
        return Math.min(Checks.batchSize(max), group.settings().claimBatch());
    }

    /** A managed consumer's next fetch, with the acks of what it finished made by the claim script. */
    @Override
    public AckingFetch<T> ackingFetch() {
        if (group.settings().replicas().waited()) {
            return null;
        }
        return (done, max, timeoutNanos) -> {
            List<StreamDelivery<T>> mine = new ArrayList<>(done.size());
            for (Delivery<T> d : done) {
                if (d instanceof StreamDelivery<T> sd && sd.store() == this) {
                    if (sd.settled().claim()) {
                        mine.add(sd);
                    }
                } else {
                    d.ack();
                }
            }
            PendingAck pending = PendingAck.none();
            if (!mine.isEmpty()) {
                List<StreamScripts.Lease> leases = new ArrayList<>(mine.size());
                mine.forEach(sd -> leases.add(sd.lease()));
                pending = PendingAck.inline(
                        ack.queueScript(),
                        ack.args(groupName, consumer, leases),
                        this::acked,
                        () -> mine.forEach(sd -> sd.settled().release()));
            }
            return receiver.receive(batch(max), timeoutNanos, pending);
        };
    }

    /** Claims, and waits on the stream after the entry the last claim saw. */
    private final class Waits implements Receiver.Store<T, PendingAck> {
        @Override
        public Receiver.Claimed<T> claim(int max, PendingAck ack) {
            List<Delivery<T>> got = new ArrayList<>();
            StreamScripts.Claim.Result r = GroupStore.this.claim(max, got, ack);
            return new Receiver.Claimed<>(got, r.nowMillis(), r.nextEventMillis());
        }

        @Override
        public Receiver.Woken<T> block(int max, long millis, PendingAck ack) {
            ack.ackAlone(); // the blocking call cannot carry it
            String after = seen.get().lastId;
            StreamEntryID from = after == null ? StreamEntryID.XREAD_NEW_ENTRY : new StreamEntryID(after);
            RedisCalls.call(
                    waitLabel,
                    () -> jedis.xread(
                            XReadParams.xReadParams().block((int) millis).count(1), Map.of(streamKey, from)));
            return Receiver.Woken.nothing();
        }

        @Override
        public long pop() {
            return StreamWaits.NONE;
        }

        @Override
        public void handOn(long millis) {}
    }

    // ---- settling (called by StreamDelivery)

    boolean ack(StreamScripts.Lease l) {
        int done = ack.run(groupName, consumer, List.of(l));
        acked(done);
        return done == 1;
    }

    private void acked(int count) {
        for (int i = 0; i < count; i++) {
            observer.acked();
        }
    }

    /** Acks this store's deliveries in one script, others one by one ({@link AckAll}). */
    int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.together(deliveries, new AckAll.Together<StreamDelivery<T>>() {
            @Override
            public StreamDelivery<T> own(Delivery<?> d) {
                return d instanceof StreamDelivery<?> sd && sd.store() == GroupStore.this ? cast(sd) : null;
            }

            @Override
            public boolean claim(StreamDelivery<T> d) {
                return d.settled().claim();
            }

            @Override
            public void release(StreamDelivery<T> d) {
                d.settled().release();
            }

            @Override
            public int ack(List<StreamDelivery<T>> mine) {
                List<StreamScripts.Lease> leases = new ArrayList<>(mine.size());
                mine.forEach(d -> leases.add(d.lease()));
                int done = ack.run(groupName, consumer, leases);
                acked(done);
                return done;
            }
        });
    }

    @SuppressWarnings("unchecked") // this store's deliveries are of its payload type
    private StreamDelivery<T> cast(StreamDelivery<?> d) {
        return (StreamDelivery<T>) d;
    }

    boolean retry(StreamScripts.Lease l, Duration delay) {
        boolean done = retry.run(groupName, consumer, l, RedisContext.delayMillis(delay));
        if (done) {
            observer.retried();
        }
        return done;
    }

    boolean extendLease(StreamScripts.Lease l, Duration duration) {
        return renew.run(groupName, consumer, l, duration.toMillis());
    }

    boolean deadLetter(StreamDelivery<T> d, String reason) {
        boolean done = bury.run(
                groupName, consumer, d.lease(), d.storedId(), reason == null ? "" : reason, retention, d.storedBody());
        if (done) {
            observer.deadLettered();
        }
        return done;
    }

    T decode(byte[] section) {
        return group.decode(section);
    }

    // ---- inspection

    /** The group's counts as stored now. */
    StreamScripts.Info.Counts counts() {
        return info.run(groupName);
    }

    /**
     * {@inheritDoc} Ready: the group's lag (0 where unknown), retries that fell due and leases that
     * expired; in flight: leases that have not.
     */
    @Override
    public QueueStats stats() {
        StreamScripts.Info.Counts c = counts();
        return new QueueStats(Math.max(0, c.lag()) + c.readyAgain(), c.inFlight(), c.delayed(), c.dead(), c.paused());
    }

    @Override
    public DeadLetterStore<T> deadLetters() {
        return dead;
    }

    @Override
    public void storePaused(boolean paused) {
        pauseKey.store(paused);
    }

    @Override
    public boolean paused() {
        return pauseKey.read();
    }

    @Override
    public LeaseKeeper leaseKeeper() {
        return group.leaseRenewal();
    }

    /** Nothing to wake: a waiting consumer notices within its block timeout. */
    @Override
    public void receivingStopped() {}

    /**
     * The object's consumer leaves the group if it holds nothing (another object of the group in
     * this topic object, which shares the name, makes it again at its next claim). A failure is
     * harmless: the name stays listed in the group.
     */
    @Override
    public void closed() {
        try {
            leave.run(groupName, consumer);
        } catch (RuntimeException e) {
            // the consumer's name stays in XINFO CONSUMERS; nothing else depends on it
        }
    }
}
