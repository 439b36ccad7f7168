package io.queuekit.redis.zset;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.SerializationException;
import io.queuekit.internal.AckAll;
import io.queuekit.internal.AckingFetch;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.PauseKey;
import io.queuekit.redis.internal.PendingAck;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.StoredBody;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The delay queue's operations on its storage ({@code includes/storage.lua}): store, claim under a lease with
 * a fencing token, settle, reap expired leases, cancel, count, peek. Each is one script, so atomic
 * and one round trip.
 *
 * @param <T> the payload type
 */
final class ZsetStore<T> implements DelayStorage<T> {
    private final RedisContext<T> queue;
    private final SignalList signals;
    private final QueueMetrics.Observer observer;
    private final byte[] lease;
    private final byte[] maxAttempts;
    private final byte[] retention;
    private final ZsetScripts.Send send;
    private final ZsetScripts.Claim claim;
    private final ZsetScripts.Ack ack;
    private final ZsetScripts.Retry retry;
    private final ZsetScripts.Renew renew;
    private final ZsetScripts.Bury bury;
    private final ZsetScripts.Stats stats;
    private final ZsetScripts.Cancel cancel;
    private final ZsetScripts.Peek peek;
    private final DeadLetterStore<T> dead;
    private final PauseKey pauseKey;
    private final Receiver<T, PendingAck> receiver;
    /** How consumers wait between claims: the wake-up protocol, for this object and storage. */
    private final WakeUps wakeUps;

    ZsetStore(RedisContext<T> queue) {
        this.queue = queue;
        this.signals = new SignalList(queue);
        this.observer = queue.runtime().observer();
        long leaseMillis = queue.settings().visibilityTimeout().toMillis();
        this.lease = QueueScript.num(leaseMillis);
        long blockMillis = queue.settings().blockTimeout().toMillis();
        this.wakeUps = new WakeUps(
                System::nanoTime,
                blockMillis,
                Math.min(leaseMillis, 10 * blockMillis),
                SignalList.TICK_MILLIS,
                RedisCalls.MIN_BLOCK_MILLIS);
        this.receiver = new Receiver<>(queue.runtime(), new Waits(), wakeUps);
        this.maxAttempts = QueueScript.num(queue.settings().maxAttempts());
        this.retention = QueueScript.num(queue.settings().deadLetterRetention());
        this.send = new ZsetScripts.Send(queue);
        this.claim = new ZsetScripts.Claim(queue);
        this.ack = new ZsetScripts.Ack(queue);
        this.retry = new ZsetScripts.Retry(queue);
        this.renew = new ZsetScripts.Renew(queue);
        this.bury = new ZsetScripts.Bury(queue);
        this.stats = new ZsetScripts.Stats(queue);
        this.cancel = new ZsetScripts.Cancel(queue);
        this.peek = new ZsetScripts.Peek(queue);
        this.dead = queue.deadLetterStore();
        this.pauseKey = new PauseKey(queue);
    }

    RedisContext<T> queue() {
        return queue;
    }

    // ---- storing

    /**
     * Stores payloads with generated ids, due {@code millis} after now on the server's clock (or at
     * {@code millis} when {@code absolute}). One round trip.
     */
    @Override
    public List<MessageId> send(List<? extends T> payloads, Headers headers, boolean absolute, long millis) {
        queue.runtime().checkOpen();
        return store(queue.encodeAll(payloads, headers), absolute, millis);
    }

    /** {@link #send} of payloads encoded (and checked) already. */
    List<MessageId> store(List<byte[]> encoded, boolean absolute, long millis) {
        if (encoded.isEmpty()) {
            return List.of();
        }
        List<MessageId> ids = send.storeNew(encoded, absolute, millis);
        observer.sent(ids.size());
        return ids;
    }

    /**
     * Stores payloads with generated ids, each with the headers at its index and due at its own
     * time in {@code dueMillis} (epoch ms, one per payload, in order). One round trip.
     */
    @Override
    public List<MessageId> sendEach(List<? extends T> payloads, List<Headers> headers, long[] dueMillis) {
        queue.runtime().checkOpen();
        return storeEach(queue.encodeEach(payloads, headers), dueMillis);
    }

    /** {@link #sendEach} of payloads encoded (and checked) already. */
    List<MessageId> storeEach(List<byte[]> encoded, long[] dueMillis) {
        if (encoded.isEmpty()) {
            return List.of();
        }
        List<MessageId> ids = send.storeEach(encoded, dueMillis);
        observer.sent(ids.size());
        return ids;
    }

    /** Stores a payload under a caller's id unless that id is stored; true if stored. */
    @Override
    public boolean sendWithId(MessageId id, T payload, Headers headers, boolean absolute, long millis) {
        Checks.callerId(id);
        queue.runtime().checkOpen();
        byte[] encoded = queue.encodeAll(List.of(payload), headers).get(0);
        boolean stored = send.storeWithId(id, encoded, absolute, millis);
        if (stored) {
            observer.sent(1);
        }
        return stored;
    }

    @Override
    public boolean cancel(MessageId id) {
        return cancel.run(id, maxAttempts, retention);
    }

    // ---- receiving

    /** One claim: up to {@code max} deliveries, and when to look again. */
    ZsetScripts.Claim.Result claim(int max, List<Delivery<T>> into) {
        return claim(max, into, PendingAck.none(), false);
    }

    /**
     * {@link #claim(int, List)}, after {@code pending}, which the claim script makes itself;
     * {@code watched}: a receive of this object takes on the next event (see {@link WakeUps}).
     */
    private ZsetScripts.Claim.Result claim(int max, List<Delivery<T>> into, PendingAck pending, boolean watched) {
        queue.runtime().checkReceiving();
        ZsetScripts.Claim.Result r = pending.inside(
                acks -> claim.parse(
                        claim.queueScript().run(claim.args(max, lease, maxAttempts, retention, watched, acks))),
                ZsetScripts.Claim.Result::acked);
        for (ZsetScripts.Claim.Claimed c : r.claimed()) {
            into.add(new ZsetDelivery<>(this, c.id(), c.attempt(), c.token(), c.body()));
            observer.delivered(Duration.ofMillis(r.nowMillis() - StoredBody.enqueuedMillis(c.body())));
        }
        if (r.paused()) {
            queue.runtime().pausing().learned(true);
        }
        if (r.reaped() > 0) {
            observer.redelivered(r.reaped());
        }
        for (long i = 0; i < r.buried(); i++) {
            observer.deadLettered();
        }
        return r;
    }

    /**
     * Claims up to {@code max}, waiting up to {@code timeoutNanos} between claims as the wake-up
     * protocol says ({@link WakeUps}).
     *
     * @throws InterruptedException if interrupted on entry or noticed between blocking calls
     */
    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiver.receive(batch(max), timeoutNanos, PendingAck.none());
    }

    private int batch(int max) {
        return Math.min(Checks.batchSize(max), queue.settings().claimBatch());
    }

    /**
     * A managed consumer's next fetch, with the acks of what it finished made by the script of its
     * first claim, which may come after waits in the JVM (see {@link AckingFetch} and {@link
     * Receiver}): one script call, on any client, however many it acks; alone before a block on the
     * wake-up list instead (the blocking call is not one this store sends), or if no claim comes. Not where
     * acks wait for replicas.
     */
    @Override
    public AckingFetch<T> ackingFetch() {
        if (queue.settings().replicas().waited()) {
            return null; // an ack that waits for replicas is a call of its own
        }
        return (done, max, timeoutNanos) -> {
            List<ZsetDelivery<T>> mine = new ArrayList<>(done.size());
            for (Delivery<T> d : done) {
                if (d instanceof ZsetDelivery<T> zd && zd.store() == this) {
                    if (zd.settled().claim()) { // else settled already: nothing to ack, as ack() would find
                        mine.add(zd);
                    }
                } else {
                    d.ack();
                }
            }
            PendingAck pending = PendingAck.none();
            if (!mine.isEmpty()) {
                List<ZsetScripts.Lease> leases = new ArrayList<>(mine.size());
                mine.forEach(zd -> leases.add(zd.lease()));
                pending = PendingAck.inline(
                        ack.queueScript(),
                        ack.args(leases),
                        this::acked,
                        () -> mine.forEach(zd -> zd.settled().release()));
            }
            return receiver.receive(batch(max), timeoutNanos, pending);
        };
    }

    /** The waiting: claims of this store, waits and hand-ons on its signal list. */
    private final class Waits implements Receiver.Store<T, PendingAck> {
        @Override
        public Receiver.Claimed<T> claim(int max, PendingAck ack) {
            return claim(max, ack, false);
        }

        @Override
        public Receiver.Claimed<T> claim(int max, PendingAck ack, boolean watched) {
            List<Delivery<T>> got = new ArrayList<>();
            ZsetScripts.Claim.Result r = ZsetStore.this.claim(max, got, ack, watched);
            return new Receiver.Claimed<>(got, r.nowMillis(), r.nextEventMillis());
        }

        @Override
        public Receiver.Woken<T> block(int max, long millis, PendingAck ack) {
            ack.ackAlone(); // the blocking call cannot carry it
            return Receiver.Woken.signal(signals.block(millis));
        }

        @Override
        public long pop() {
            return signals.pop();
        }

        @Override
        public void handOn(long millis) {
            signals.handOn(millis);
        }
    }

    /** This object's wake-up protocol; for tests. */
    WakeUps wakeUps() {
        return wakeUps;
    }

    // ---- settling (called by ZsetDelivery)

    boolean ack(ZsetScripts.Lease l) {
        int done = ack.run(List.of(l));
        acked(done);
        return done == 1;
    }

    private void acked(int count) {
        for (int i = 0; i < count; i++) {
            observer.acked();
        }
    }

    /** Acks this store's deliveries in one script, others one by one ({@link AckAll}). */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.together(deliveries, new AckAll.Together<ZsetDelivery<T>>() {
            @Override
            public ZsetDelivery<T> own(Delivery<?> d) {
                return d instanceof ZsetDelivery<?> zd && zd.store() == ZsetStore.this ? cast(zd) : null;
            }

            @Override
            public boolean claim(ZsetDelivery<T> d) {
                return d.settled().claim();
            }

            @Override
            public void release(ZsetDelivery<T> d) {
                d.settled().release();
            }

            @Override
            public int ack(List<ZsetDelivery<T>> mine) {
                List<ZsetScripts.Lease> leases = new ArrayList<>(mine.size());
                mine.forEach(d -> leases.add(d.lease()));
                int done = ack.run(leases);
                acked(done);
                return done;
            }
        });
    }

    @SuppressWarnings("unchecked") // this store's deliveries are of its payload type
    private ZsetDelivery<T> cast(ZsetDelivery<?> d) {
        return (ZsetDelivery<T>) d;
    }

    boolean retry(ZsetScripts.Lease l, Duration delay) {
        boolean done = retry.run(l, RedisContext.delayMillis(delay));
        if (done) {
            observer.retried();
        }
        return done;
    }

    boolean extendLease(ZsetScripts.Lease l, Duration duration) {
        return renew.run(l, duration.toMillis());
    }

    boolean deadLetter(ZsetScripts.Lease l, String reason) {
        boolean done = bury.run(l, reason == null ? "" : reason, retention);
        if (done) {
            observer.deadLettered();
        }
        return done;
    }

    T decode(byte[] payload) {
        return queue.decode(payload);
    }

    // ---- inspection

    @Override
    public QueueStats stats() {
        return stats.run();
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
        return queue.leaseRenewal();
    }

    /** Nothing to wake: a waiting consumer notices within its block timeout. */
    @Override
    public void receivingStopped() {}

    /** Nothing held outside Redis, which keeps everything. */
    @Override
    public void closed() {}

    @Override
    public List<WaitingMessage<T>> peek(int max) {
        List<ZsetScripts.Peek.Waiting> rows = peek.run(max);
        List<WaitingMessage<T>> out = new ArrayList<>(rows.size());
        for (ZsetScripts.Peek.Waiting w : rows) {
            Instant due = Instant.ofEpochMilli(w.dueMillis());
            MessageId id;
            try {
                id = MessageId.of(w.id());
            } catch (IllegalArgumentException e) {
                out.add(new WaitingMessage<>(null, 0, null, due, decodeOrNull(QueueScript.text(w.id()))));
                continue;
            }
            byte[] body = w.body();
            long enqueued = body == null ? -1 : StoredBody.checkedEnqueuedMillis(body);
            byte[] section = body == null ? null : enqueued < 0 ? body : StoredBody.payload(body);
            out.add(new WaitingMessage<>(
                    id,
                    w.deliveries() + 1,
                    enqueued < 0 ? null : Instant.ofEpochMilli(enqueued),
                    due,
                    section == null ? null : decodeOrNull(section),
                    section == null ? Headers.empty() : Payloads.headers(section)));
        }
        return out;
    }

    private T decodeOrNull(byte[] payload) {
        try {
            return queue.decode(payload);
        } catch (SerializationException e) {
            return null;
        }
    }
}
