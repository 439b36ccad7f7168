package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.QueueStats;
import io.queuekit.internal.AckAll;
import io.queuekit.internal.AckingFetch;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import io.queuekit.redis.internal.PendingAck;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.ListDirection;

/**
 * At-least-once receiving: the reliable-queue pattern of the Redis documentation. A consumer takes
 * a message with one atomic BLMOVE (LMOVE when not waiting) from 'ready' into 'claiming', so a
 * message is always ready, in flight, delayed or dead, never nowhere, and a consumer that dies at
 * any point leaves its message in flight. Leases are kept by the upkeep ({@code reap.lua}), which
 * one consumer of the queue instance runs about once per block timeout and when a lease or retry
 * falls due: it moves what it finds in 'claiming' into the 'held' hash by id, starting their
 * leases, and returns those whose lease expired (or buries them at the maximum attempts). A batch
 * claim ({@code claim.lua}) moves messages from 'ready' into 'held' with their leases at once. Ack
 * removes a message from 'claiming', where the newest takes wait (a plain {@code LREM}, for one
 * taken alone that no upkeep moved yet), or from 'held' by id (the ack script), so its cost does
 * not grow with the number in flight.
 *
 * <p>So a lease starts at a batch take, or when the upkeep first sees a message taken alone,
 * within about a block timeout after the take, and an unsettled message comes back between the
 * visibility timeout and that plus about two block timeouts. The consumer keeps its own deadline (the take plus the visibility timeout):
 * settling after it returns {@code false} without a round trip, and settling succeeds only while
 * the delivery's exact element (id and attempt) is still in flight, so a delivery never settles a
 * message that was handed out again.
 *
 * <p>Round trips per message: one BLMOVE and one ack; the upkeep adds one per block timeout. The
 * read of the queue's pause goes with each take, in its round trip where the client can (rule 11 of
 * {@code docs/wake-up-protocol.md}): an element taken while paused is given back to the head.
 */
final class AtLeastOnce<T> extends ListMode<T> {
    private static final Logger LOG = LoggerFactory.getLogger(AtLeastOnce.class);

    private final ListScripts.Reap reap;
    private final ListScripts.Ack ack;
    private final ListScripts.Release release;
    private final ListScripts.Claim claim;
    private final long leaseNanos;
    private final String receiveLabel;
    private final String waitLabel;
    private final String ackLabel;
    /** Receives: a batch take first when more than one is asked for, then BLMOVE. */
    private final Receiver<T, CarriedAck> receiving;
    /** Receives without a take first: the caller just took what was ready ({@link ListShards}). */
    private final Receiver<T, CarriedAck> awaiting;
    /**
     * When the last upkeep of this instance that emptied 'claiming' was sent (System.nanoTime): an
     * element taken alone whose take's reply came before it is in 'held'.
     */
    private volatile long sweptUpTo;

    AtLeastOnce(RedisContext<T> engine) {
        super(engine);
        this.reap = new ListScripts.Reap(engine);
        this.ack = new ListScripts.Ack(engine);
        this.release = new ListScripts.Release(engine);
        this.claim = new ListScripts.Claim(engine);
        this.leaseNanos = engine.settings().visibilityTimeout().toNanos();
        this.receiveLabel = engine.label() + ": receive";
        this.waitLabel = engine.label() + ": wait";
        this.ackLabel = engine.label() + ": ack";
        this.sweptUpTo = System.nanoTime(); // before any take
        Moves moves = new Moves();
        this.receiving = new Receiver<>(engine.runtime(), moves, gate.plans(max -> Math.min(max, claimBatch) > 1));
        this.awaiting = new Receiver<>(engine.runtime(), moves, gate.plans(max -> false));
    }

    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiving.receive(max, timeoutNanos, new CarriedAck(List.of()));
    }

    @Override
    List<Delivery<T>> await(int max, long timeoutNanos) throws InterruptedException {
        return awaiting.receive(max, timeoutNanos, new CarriedAck(List.of()));
    }

    /**
     * A managed consumer's next fetch, with the acks of what it finished ({@code done}): made by
     * the batch claim's script, or written in the same round trip as the LMOVE or BLMOVE of a
     * fetch of one; see {@link AckingFetch}. Only where the client can send them together
     * ({@link RedisContext#oneRoundTrip()}).
     */
    @Override
    public AckingFetch<T> ackingFetch() {
        if (engine.oneRoundTrip() == null) {
            return null;
        }
        return (done, max, timeoutNanos) -> {
            List<LeasedDelivery<T>> toAck = new ArrayList<>(done.size());
            for (Delivery<T> d : done) {
                if (d instanceof LeasedDelivery<T> ld && ld.mode() == this) {
                    // past its deadline or settled already: nothing to ack, as ack() would find
                    if (ld.claimSettlement()) {
                        toAck.add(ld);
                    }
                } else {
                    d.ack();
                }
            }
            return receiving.receive(max, timeoutNanos, new CarriedAck(toAck));
        };
    }

    /**
     * The acks of deliveries whose settling their consumer claimed, to go with the next fetch:
     * inside the batch claim's script ({@link #inClaim}), or before a move in its round trip
     * ({@link #withMove}), made after the upkeep, which may move an element out of 'claiming'
     * (see {@link #pendingAck}).
     */
    private final class CarriedAck implements Receiver.CarriedAck {
        private final List<LeasedDelivery<T>> toAck;
        private PendingAck pending;
        private boolean inline;

        CarriedAck(List<LeasedDelivery<T>> toAck) {
            this.toAck = toAck;
        }

        PendingAck withMove() {
            if (pending == null) {
                pending = pendingAck(toAck);
            } else if (inline) {
                pending.ackAlone(); // a move cannot carry a script's ack: made alone if still waiting
            }
            return pending;
        }

        PendingAck inClaim() {
            if (pending == null) {
                inline = true;
                pending = toAck.isEmpty()
                        ? PendingAck.none()
                        : PendingAck.inline(
                                ack.queueScript(),
                                ack.args(envelopes(toAck)),
                                AtLeastOnce.this::acked,
                                () -> toAck.forEach(LeasedDelivery::releaseSettlement));
            }
            return pending;
        }

        @Override
        public void ackAlone() {
            (pending != null ? pending : inClaim()).ackAlone();
        }

        @Override
        public boolean carrying() {
            return pending == null && !toAck.isEmpty();
        }
    }

    private static <T> List<Envelope> envelopes(List<LeasedDelivery<T>> deliveries) {
        List<Envelope> out = new ArrayList<>(deliveries.size());
        deliveries.forEach(d -> out.add(d.envelope()));
        return out;
    }

    /** Takes with LMOVE or a batch script, waits with BLMOVE; the upkeep first when it is due. */
    private final class Moves implements Receiver.Store<T, CarriedAck> {
        @Override
        public Receiver.Claimed<T> claim(int max, CarriedAck ack) {
            upkeep();
            int n = Math.min(max, claimBatch);
            List<Delivery<T>> got;
            if (n > 1) {
                got = takeBatch(n, ack.inClaim());
            } else {
                byte[] e = fetch(ack.withMove(), 0);
                got = e == null ? List.of() : deliveries(e, System.nanoTime(), false);
            }
            return new Receiver.Claimed<>(got, WakeUps.NONE, WakeUps.NONE);
        }

        @Override
        public Receiver.Woken<T> block(int max, long millis, CarriedAck ack) throws InterruptedException {
            upkeep();
            PendingAck pending = ack.withMove();
            long wait = Math.min(millis, Math.max(1, ceilMillis(untilUpkeep(System.nanoTime()))));
            if (wait < RedisCalls.MIN_BLOCK_MILLIS) {
                Thread.sleep(wait);
            }
            byte[] e = fetch(pending, wait < RedisCalls.MIN_BLOCK_MILLIS ? 0 : wait);
            if (e == null) {
                return Receiver.Woken.nothing();
            }
            long received = System.nanoTime();
            stopIfAsked(e);
            return Receiver.Woken.took(deliveries(e, received, false));
        }

        @Override
        public long pop() {
            return WakeUps.NONE;
        }

        @Override
        public void handOn(long millis) {}
    }

    @Override
    public LeaseKeeper leaseKeeper() {
        return engine.leaseRenewal();
    }

    /**
     * {@inheritDoc} Runs the upkeep first when it is due, so that an envelope taken without a
     * lease yet gets one, and leases that expired count as ready, as they do on every transport.
     */
    @Override
    public QueueStats stats() {
        upkeep();
        return super.stats();
    }

    /** Runs the upkeep if it is due and no other thread of this queue is running it. */
    private void upkeep() {
        long now = System.nanoTime();
        if (upkeepDue(now)) {
            ListScripts.Reap.Result r;
            do { // one script leases at most 1,000, so that none runs long: more wait, run again
                r = reap.run(lease, maxAttempts, retention);
                if (r.returned() > 0) {
                    observer.redelivered(r.returned());
                }
                for (long i = r.buried(); i > 0; i--) {
                    observer.deadLettered();
                }
            } while (r.left() > 0 && !engine.runtime().isClosing());
            if (r.left() == 0) {
                sweptUpTo = now;
            }
            upkeepDone(now, r.nowMillis(), r.nextEventMillis());
        }
    }

    /** Takes up to {@code n} with the claim script, which makes {@code pending} first. */
    private List<Delivery<T>> takeBatch(int n, PendingAck pending) {
        // the script starts the leases: deadlines count from before it was sent, so never after them
        long sent = System.nanoTime();
        ListScripts.Claim.Result r = pending.inside(acks -> claim.run(n, lease, acks), ListScripts.Claim.Result::acked);
        if (r.paused()) {
            pausing.learned(true);
        }
        List<byte[]> taken = r.elements();
        List<Delivery<T>> out = new ArrayList<>(taken.size());
        for (byte[] e : taken) {
            out.addAll(deliveries(e, sent, true));
        }
        return out;
    }

    /**
     * The delivery of an element taken; none if it was not an envelope (it is buried). {@code
     * leased}: taken in a batch, into 'held' with a lease, rather than alone into 'claiming'.
     */
    private List<Delivery<T>> deliveries(byte[] element, long receivedNanos, boolean leased) {
        Envelope e = Envelope.parse(element);
        if (e == null) {
            buryForeign(element, element);
            return List.of();
        }
        return List.of(new LeasedDelivery<>(this, delivered(e), receivedNanos, receivedNanos + leaseNanos, leased));
    }

    /**
     * After a BLMOVE took an element: if the queue was closed or the caller interrupted meanwhile,
     * gives it back to the head of the list and throws.
     */
    private void stopIfAsked(byte[] taken) throws InterruptedException {
        boolean closed = engine.runtime().isClosing();
        if (!closed && !Thread.interrupted()) {
            return;
        }
        giveBack(taken, closed ? "closing" : "interrupted");
        engine.runtime().checkReceiving();
        throw new InterruptedException();
    }

    /**
     * Moves the oldest ready element into 'claiming': with LMOVE, or BLMOVE waiting up to
     * {@code millis} (0: not at all); with the pending ack in the same round trip, and the read of
     * the pause after it. An element taken while the queue is paused is given back to the head of
     * 'ready' ({@link #giveBack}), and null returned.
     */
    private byte[] fetch(PendingAck pending, long millis) {
        engine.checkShardCount(millis == 0 ? "receive" : "wait"); // the take may be this object's first command
        String what = millis == 0 ? receiveLabel : waitLabel;
        Took t;
        if (millis == 0) {
            t = take(
                    pending,
                    new CommandArguments(Protocol.Command.LMOVE)
                            .key(ready)
                            .key(claiming)
                            .add(ListDirection.RIGHT)
                            .add(ListDirection.LEFT),
                    () -> jedis.lmove(ready, claiming, ListDirection.RIGHT, ListDirection.LEFT),
                    what);
        } else {
            double seconds = RedisCalls.blockSeconds(millis);
            t = take(
                    pending,
                    new CommandArguments(Protocol.Command.BLMOVE)
                            .key(ready)
                            .key(claiming)
                            .add(ListDirection.RIGHT)
                            .add(ListDirection.LEFT)
                            .add(seconds)
                            .blocking(),
                    () -> jedis.blmove(ready, claiming, ListDirection.RIGHT, ListDirection.LEFT, seconds),
                    what);
        }
        byte[] e = (byte[]) PendingAck.checked(t.reply(), what);
        if (pausedAfter(t, e != null)) {
            if (e != null) {
                giveBack(e, "the queue is paused");
            }
            return null;
        }
        return e;
    }

    /**
     * Gives an element taken back to the head of 'ready', where it was, out of 'claiming'; if that
     * fails, its lease returns it.
     */
    private void giveBack(byte[] taken, String why) {
        Envelope e = Envelope.parse(taken);
        try {
            release.run(taken, e == null ? NONE : QueueScript.text(e.id.value()));
        } catch (RuntimeException ex) {
            LOG.warn("{}: could not give back a message taken while {}; its lease will return it", label(), why, ex);
        }
    }

    /**
     * The acks of {@code ds} (none if empty) to send with a fetch: for one, a plain {@code LREM}
     * from 'claiming' where that is the whole ack, followed by the ack script if the element was no longer there
     * (see {@link #ack(LeasedDelivery)}); else the ack script. The LREM's reply is read with the
     * fetch's, so the script after an LREM that missed runs up to a block timeout later: the LREM
     * only while the delivery's deadline is more than two block timeouts away, else the script,
     * which runs before the fetch.
     */
    private PendingAck pendingAck(List<LeasedDelivery<T>> ds) {
        if (ds.isEmpty()) {
            return PendingAck.none();
        }
        LeasedDelivery<T> d = ds.get(0);
        if (ds.size() > 1 || !mayBeClaiming(d) || d.deadlineNanos() - System.nanoTime() < 2 * capNanos) {
            return PendingAck.of(
                    engine,
                    ack.queueScript(),
                    ack.args(envelopes(ds)),
                    this::acked,
                    () -> ds.forEach(LeasedDelivery::releaseSettlement));
        }
        Envelope e = d.envelope();
        return PendingAck.of(
                engine,
                () -> new CommandArguments(Protocol.Command.LREM)
                        .key(claiming)
                        .add(1)
                        .add(e.element()),
                raw -> unclaimed((Long) PendingAck.checked(raw, ackLabel), e),
                () -> ackUnleased(e),
                this::acked,
                d::releaseSettlement);
    }

    private void acked(int count) {
        for (int i = 0; i < count; i++) {
            observer.acked();
        }
    }

    /**
     * Removes a delivery's element from flight; false if it was no longer there. An element taken
     * alone waits in 'claiming' until an upkeep moves it to 'held', and has no lease until then
     * unless an extension started one: a plain {@code LREM} from 'claiming' is then its whole ack,
     * a fraction of the ack script's cost on the server, and only if the element was no longer
     * there (an upkeep of another instance moved it) does the script look in 'held'. Where it can
     * no longer be in 'claiming' (see {@link #mayBeClaiming}) the script runs alone, and so does an
     * ack that waits for replicas, so as to wait once.
     */
    boolean ack(LeasedDelivery<T> d) {
        Envelope e = d.envelope();
        if (!mayBeClaiming(d) || engine.settings().replicas().waited()) {
            return ack(List.of(e)) == 1;
        }
        int n = ackUnleased(e);
        acked(n);
        return n == 1;
    }

    /**
     * Whether {@code d}'s element may still wait in 'claiming' with no lease: taken alone, no
     * extension asked for, and no upkeep of this instance emptied 'claiming' after the take's reply
     * came. (An upkeep of another instance may have moved it all the same.)
     */
    private boolean mayBeClaiming(LeasedDelivery<T> d) {
        return !d.leased() && sweptUpTo - d.takenNanos() <= 0;
    }

    /** {@link #ack(LeasedDelivery)} of an element that may be in 'claiming': 1 if acked, else 0. */
    private int ackUnleased(Envelope e) {
        return unclaimed(RedisCalls.call(ackLabel, () -> jedis.lrem(claiming, 1, e.element())), e);
    }

    /**
     * After an {@code LREM} of {@code e} from 'claiming' removed {@code removed}: 1 if it did, else
     * what the ack script makes of it (it may be in 'held').
     */
    private int unclaimed(long removed, Envelope e) {
        return removed == 1 ? 1 : ack.run(List.of(e));
    }

    /** Removes deliveries' elements from flight in one script; returns how many were still there. */
    int ack(List<Envelope> envelopes) {
        int acked = ack.run(envelopes);
        acked(acked);
        return acked;
    }

    /**
     * Acks this mode's deliveries in one script, others one by one ({@link AckAll}). A delivery
     * past its deadline or already settled is skipped, as {@link LeasedDelivery#ack()} would.
     */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.together(deliveries, new AckAll.Together<LeasedDelivery<T>>() {
            @Override
            @SuppressWarnings("unchecked") // this mode's deliveries are of its payload type
            public LeasedDelivery<T> own(Delivery<?> d) {
                return d instanceof LeasedDelivery<?> ld && ld.mode() == AtLeastOnce.this
                        ? (LeasedDelivery<T>) ld
                        : null;
            }

            @Override
            public boolean claim(LeasedDelivery<T> d) {
                return d.claimSettlement();
            }

            @Override
            public void release(LeasedDelivery<T> d) {
                d.releaseSettlement();
            }

            @Override
            public int ack(List<LeasedDelivery<T>> mine) {
                List<Envelope> envelopes = new ArrayList<>(mine.size());
                mine.forEach(ld -> envelopes.add(ld.envelope()));
                return AtLeastOnce.this.ack(envelopes);
            }
        });
    }
}
