package io.queuekit.redis.zset;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.SerializationException;
import io.queuekit.internal.AckingFetch;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.redis.WaitingMessage;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The delay queue's operations on its storage ({@code zset.lua}): store, claim under a lease with
 * a fencing token, settle, reap expired leases, cancel, count, peek. Each is one script, so atomic
 * and one round trip.
 *
 * @param <T> the payload type
 */
final class ZsetStore<T> implements DelayStorage<T> {
    /**
     * How a consumer waits between claims until something may be claimable. Blocks in Redis for
     * about {@code millis} (at least 1): the time until the next message or lease falls due, at
     * {@code eventMillis} on the server's clock, or until the caller's deadline; it may block
     * longer, up to {@code patienceMillis} (the caller's deadline capped by the block timeout), when
     * another consumer watches that due time or an earlier one and will wake it. Returns the time
     * (ms, the server's clock) a wake-up said something becomes claimable; or, if none arrived,
     * {@link #NO_SIGNAL} after waiting {@code millis}, or {@link #WATCHED} after waiting while
     * another consumer watched a due time no later.
     */
    @FunctionalInterface
    interface Waiter {
        long NO_SIGNAL = -1;
        long WATCHED = -2;

        long await(long millis, long patienceMillis, long eventMillis);
    }

    private final RedisContext<T> queue;
    private final Waiter waiter;
    private final QueueMetrics.Observer observer;
    private final byte[] lease;
    private final byte[] maxAttempts;
    private final byte[] retention;
    private final ZsetScripts.Enqueue enqueue;
    private final ZsetScripts.Claim claim;
    private final ZsetScripts.Ack ack;
    private final ZsetScripts.Retry retry;
    private final ZsetScripts.Renew renew;
    private final ZsetScripts.DeadLetter deadLetter;
    private final ZsetScripts.Stats stats;
    private final ZsetScripts.Cancel cancel;
    private final ZsetScripts.Peek peek;
    private final DeadLetterStore<T> dead;
    private final long leaseMillis;
    /** How long a claim's finding that nothing is claimable stands: see {@link Quiet}. */
    private final long quietMillis;
    /** What the latest claim of this object found: nothing else claimable before a time; or null. */
    private final AtomicReference<Quiet> quiet = new AtomicReference<>();

    /** @param waiter how consumers wait between claims */
    ZsetStore(RedisContext<T> queue, Waiter waiter) {
        this.queue = queue;
        this.waiter = waiter;
        this.observer = queue.runtime().observer();
        this.leaseMillis = queue.settings().visibilityTimeout().toMillis();
        this.lease = QueueScript.num(leaseMillis);
        this.quietMillis = Math.min(leaseMillis, 10 * queue.settings().blockTimeout().toMillis());
        this.maxAttempts = QueueScript.num(queue.settings().maxAttempts());
        this.retention = QueueScript.num(queue.settings().deadLetterRetention());
        this.enqueue = new ZsetScripts.Enqueue(queue);
        this.claim = new ZsetScripts.Claim(queue);
        this.ack = new ZsetScripts.Ack(queue);
        this.retry = new ZsetScripts.Retry(queue);
        this.renew = new ZsetScripts.Renew(queue);
        this.deadLetter = new ZsetScripts.DeadLetter(queue);
        this.stats = new ZsetScripts.Stats(queue);
        this.cancel = new ZsetScripts.Cancel(queue);
        this.peek = new ZsetScripts.Peek(queue);
        this.dead = queue.deadLetterStore();
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
    public List<MessageId> send(List<? extends T> payloads, boolean absolute, long millis) {
        queue.runtime().checkOpen();
        return store(queue.encodeAll(payloads), absolute, millis);
    }

    /** {@link #send} of payloads encoded (and checked) already. */
    List<MessageId> store(List<byte[]> encoded, boolean absolute, long millis) {
        if (encoded.isEmpty()) {
            return List.of();
        }
        List<MessageId> ids = enqueue.storeNew(encoded, absolute, millis);
        observer.sent(ids.size());
        return ids;
    }

    /**
     * Stores payloads with generated ids, each due at its own time in {@code dueMillis} (epoch ms,
     * one per payload, in order). One round trip.
     */
    @Override
    public List<MessageId> sendEach(List<? extends T> payloads, long[] dueMillis) {
        queue.runtime().checkOpen();
        return storeEach(queue.encodeAll(payloads), dueMillis);
    }

    /** {@link #sendEach} of payloads encoded (and checked) already. */
    List<MessageId> storeEach(List<byte[]> encoded, long[] dueMillis) {
        if (encoded.isEmpty()) {
            return List.of();
        }
        List<MessageId> ids = enqueue.storeEach(encoded, dueMillis);
        observer.sent(ids.size());
        return ids;
    }

    /** Stores a payload under a caller's id unless that id is stored; true if stored. */
    @Override
    public boolean sendWithId(MessageId id, T payload, boolean absolute, long millis) {
        Checks.callerId(id);
        queue.runtime().checkOpen();
        byte[] encoded = queue.encodeAll(List.of(payload)).get(0);
        boolean stored = enqueue.storeWithId(id, encoded, absolute, millis);
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
        return claim(max, into, PendingAck.none());
    }

    /** {@link #claim(int, List)}, after {@code pending}, which the claim script makes itself. */
    private ZsetScripts.Claim.Result claim(int max, List<Delivery<T>> into, PendingAck pending) {
        queue.runtime().checkReceiving();
        ZsetScripts.Claim.Result r = pending.inside(
                acks -> claim.parse(claim.queueScript().run(claim.args(max, lease, maxAttempts, retention, acks))),
                ZsetScripts.Claim.Result::acked);
        Clock server = new Clock(r.nowMillis(), System.nanoTime());
        quiet.set(r.nextEventMillis() < 0 || r.nextEventMillis() > r.nowMillis() ? new Quiet(server, r.nextEventMillis()) : null);
        for (ZsetScripts.Claim.Claimed c : r.claimed()) {
            into.add(new ZsetDelivery<>(this, c.id(), c.attempt(), c.token(), c.body()));
            observer.delivered(Duration.ofMillis(r.nowMillis() - StoredBody.enqueuedMillis(c.body())));
        }
        if (r.reaped() > 0) {
            observer.redelivered(r.reaped());
        }
        for (long i = 0; i < r.buried(); i++) {
            observer.deadLettered();
        }
        return r;
    }

    /** One claim of up to {@code max}, without waiting. */
    @Override
    public List<Delivery<T>> claim(int max) {
        List<Delivery<T>> out = new ArrayList<>();
        claim(max, out);
        return out;
    }

    /**
     * Claims up to {@code max}, waiting up to {@code timeoutNanos} with the waiter between
     * claims. Each wait lasts until the next delayed message or lease falls due, capped by the
     * block timeout and the caller's deadline.
     *
     * @throws InterruptedException if interrupted on entry or noticed between blocking calls
     */
    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receive(max, timeoutNanos, PendingAck.none());
    }

    /**
     * A managed consumer's next fetch, one message, with the ack of the one it finished made by
     * its first claim's script (see {@link AckingFetch}): one script call, on any client; alone
     * before a first wait instead (the {@link Waiter}'s blocking call is not one this store
     * sends). Not where acks wait for replicas.
     */
    @Override
    public AckingFetch<T> ackingFetch() {
        if (queue.settings().replicas().waited()) {
            return null; // an ack that waits for replicas is a call of its own
        }
        return (done, timeoutNanos) -> {
            PendingAck pending = PendingAck.none();
            if (done instanceof ZsetDelivery<T> zd && zd.store() == this) {
                if (zd.settled().claim()) { // else settled already: nothing to ack, as ack() would find
                    List<byte[]> args = ack.args(List.of(zd.lease()));
                    pending = PendingAck.inline(ack.queueScript(), args, this::acked, zd.settled()::release);
                }
            } else {
                done.ack();
            }
            List<Delivery<T>> got = receive(1, timeoutNanos, pending);
            return got.isEmpty() ? null : got.get(0);
        };
    }

    private List<Delivery<T>> receive(int max, long timeoutNanos, PendingAck pending) throws InterruptedException {
        try {
            return receiveAcking(max, timeoutNanos, pending);
        } finally {
            pending.ackAlone();
        }
    }

    private List<Delivery<T>> receiveAcking(int max, long timeoutNanos, PendingAck pending)
            throws InterruptedException {
        int n = Math.min(Checks.batchSize(max), queue.settings().claimBatch());
        long deadline = System.nanoTime() + timeoutNanos;
        long cap = queue.settings().blockTimeout().toMillis();
        Clock server = null;
        long nextEvent = -1;
        boolean claimNow = true;
        Quiet q = quiet.get();
        if (q != null && timeoutNanos >= TimeUnit.MILLISECONDS.toNanos(RedisCalls.MIN_BLOCK_MILLIS)) {
            // the latest claim found nothing more claimable before q.until(): what became claimable
            // since pushed a signal, which the wait below reads at once, so a claim now would find nothing
            long until = q.until(quietMillis);
            if (until - q.server().nowMillis() >= RedisCalls.MIN_BLOCK_MILLIS) {
                server = q.server();
                nextEvent = until;
                claimNow = false;
            }
        }
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (claimNow) {
                List<Delivery<T>> got = new ArrayList<>();
                ZsetScripts.Claim.Result c = claim(n, got, pending);
                if (!got.isEmpty()) {
                    return got;
                }
                server = new Clock(c.nowMillis(), System.nanoTime());
                nextEvent = c.nextEventMillis();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return List.of();
            }
            long leftMillis = TimeUnit.NANOSECONDS.toMillis(left) + 1;
            long untilDeadline = Math.min(cap, leftMillis);
            long untilEvent = nextEvent < 0 ? Long.MAX_VALUE : nextEvent - server.nowMillis();
            long wait = Math.min(untilDeadline, untilEvent);
            if (wait <= 0) {
                claimNow = true;
                continue;
            }
            pending.ackAlone();
            long event = nextEvent;
            long signal = RedisCalls.call(queue.label() + ": wait", () -> waiter.await(wait, untilDeadline, event));
            queue.runtime().checkReceiving();
            if (signal < 0) {
                if (leftMillis <= cap && untilEvent > leftMillis) {
                    // the caller's deadline came with no wake-up and nothing falling due: nothing to claim
                    return List.of();
                }
                Quiet latest = quiet.get();
                boolean ours = signal == Waiter.NO_SIGNAL && untilEvent <= wait; // we watched our event: claim it
                if (!ours && latest != null && latest.until(quietMillis) - latest.server().nowMillis() > 1) {
                    // the latest claim of this queue object still vouches that nothing is claimable
                    // yet (what became so since signalled, and a signal ends a wait): wait again.
                    // An event this consumer knew of that has passed was another consumer's to claim;
                    // one still to come was learned into it from its signal
                    server = latest.server();
                    nextEvent = latest.until(quietMillis);
                    claimNow = false;
                } else {
                    claimNow = true;
                }
            } else if (signal > server.nowMillis()) {
                // woken for a later time: wait for it, rather than claim now and find nothing. An
                // event this consumer knew of that has passed was claimed: the signal would
                // otherwise name a time already come
                nextEvent = nextEvent < 0 || nextEvent <= server.nowMillis() ? signal : Math.min(nextEvent, signal);
                learned(signal);
                claimNow = false;
            } else {
                claimNow = true;
            }
        }
    }

    /**
     * Shortens the latest claim's finding to an event a signal named, which this consumer took off
     * the signal list: the next receive, of this consumer or another of this queue object, must
     * wait for it rather than trust the claim until its horizon, since no signal will name it again.
     */
    private void learned(long eventMillis) {
        quiet.updateAndGet(q -> q == null || (q.nextEvent() >= 0 && q.nextEvent() <= eventMillis) ? q
                : new Quiet(q.server(), eventMillis));
    }

    /**
     * A claim's finding that nothing more was claimable until {@code nextEvent} (-1: nothing known).
     * Whatever becomes claimable sooner pushes a signal, and leases taken since expire no sooner
     * than one visibility timeout after it; it is trusted for at most {@code horizonMillis} (the
     * visibility timeout, at most ten block timeouts), so that a signal lost with a consumer that
     * died holding it delays a message by no more than that.
     */
    private record Quiet(Clock server, long nextEvent) {
        long until(long horizonMillis) {
            long horizon = server.millis() + horizonMillis;
            return nextEvent < 0 ? horizon : Math.min(nextEvent, horizon);
        }
    }

    /** The server's clock as a claim read it, run on from there by this JVM's. */
    private record Clock(long millis, long atNanos) {
        long nowMillis() {
            return millis + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - atNanos);
        }
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

    /**
     * Acks many deliveries in one round trip: this queue's own in one script, any others one by
     * one. Returns how many were settled.
     */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        List<ZsetDelivery<T>> mine = new ArrayList<>(deliveries.size());
        List<ZsetScripts.Lease> leases = new ArrayList<>(deliveries.size());
        int others = 0;
        for (Delivery<T> d : List.copyOf(deliveries)) {
            if (d instanceof ZsetDelivery<T> zd && zd.store() == this) {
                if (zd.settled().claim()) { // skipped if already settled, as its ack() would be
                    mine.add(zd);
                    leases.add(zd.lease());
                }
            } else if (d.ack()) {
                others++;
            }
        }
        if (leases.isEmpty()) {
            return others;
        }
        int acked;
        try {
            acked = ack.run(leases);
        } catch (RuntimeException e) {
            mine.forEach(zd -> zd.settled().release());
            throw e;
        }
        acked(acked);
        return acked + others;
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
        boolean done = deadLetter.run(l, reason == null ? "" : reason, retention);
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
    public LeaseKeeper leaseKeeper() {
        return queue.leaseRenewal();
    }

    /** Nothing to wake: a waiting consumer notices within its block timeout. */
    @Override
    public void receivingStopped() {
    }

    /** Nothing held outside Redis, which keeps everything. */
    @Override
    public void closed() {
    }

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
            out.add(new WaitingMessage<>(id, w.deliveries() + 1, enqueued < 0 ? null : Instant.ofEpochMilli(enqueued),
                    due, body == null ? null : decodeOrNull(enqueued < 0 ? body : StoredBody.payload(body))));
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
