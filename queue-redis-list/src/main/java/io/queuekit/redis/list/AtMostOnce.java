package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import io.queuekit.redis.internal.PendingAck;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.KeyValue;

/**
 * At-most-once: the textbook queue. A send is one LPUSH of an {@link Envelope}; a receive is one
 * BRPOP (RPOP, with a count for batches, when not waiting), and the message is gone from Redis
 * once popped.
 *
 * <p>Retries with a delay wait in the 'delayed' ZSET. No mover runs for them: about once per block
 * timeout, and when a retry this queue instance made falls due, one receive runs
 * {@code claim_at_most_once.lua} instead of the plain pop, which promotes due retries and pops in the same
 * round trip. Dead letters use the shared structures, so dead-letter listing, requeue and stats
 * work as in the at-least-once mode.
 *
 * <p>The read of the queue's pause goes with each pop, in its round trip where the client can (rule
 * 11 of {@code docs/wake-up-protocol.md}): what a pop took while paused is pushed back to the head.
 */
final class AtMostOnce<T> extends ListMode<T> {
    private static final Logger LOG = LoggerFactory.getLogger(AtMostOnce.class);

    private static final Receiver.CarriedAck NO_ACK = () -> {};

    private final ListScripts.ClaimAtMostOnce claim;
    /** Receives: a pop first when more than one is asked for (BRPOP returns at once for one). */
    private final Receiver<T, Receiver.CarriedAck> receiving;
    /** Receives without a pop first: the caller just took what was ready ({@link ListShards}). */
    private final Receiver<T, Receiver.CarriedAck> awaiting;

    AtMostOnce(RedisContext<T> engine) {
        super(engine);
        this.claim = new ListScripts.ClaimAtMostOnce(engine);
        Pops pops = new Pops();
        this.receiving = new Receiver<>(engine.runtime(), pops, gate.plans(max -> Math.min(max, claimBatch) > 1));
        this.awaiting = new Receiver<>(engine.runtime(), pops, gate.plans(max -> false));
    }

    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        return receiving.receive(max, timeoutNanos, NO_ACK);
    }

    @Override
    List<Delivery<T>> await(int max, long timeoutNanos) throws InterruptedException {
        return awaiting.receive(max, timeoutNanos, NO_ACK);
    }

    /** Pops with RPOP, waits with BRPOP; the claim script instead when the upkeep is due. */
    private final class Pops implements Receiver.Store<T, Receiver.CarriedAck> {
        @Override
        public Receiver.Claimed<T> claim(int max, Receiver.CarriedAck ack) {
            engine.checkShardCount("receive"); // the pop may be this object's first command
            int n = Math.min(max, claimBatch);
            long now = System.nanoTime();
            List<byte[]> got = upkeepDue(now) ? reapAndClaim(n, now) : popReady(n);
            return new Receiver.Claimed<>(got == null ? List.of() : deliveries(got), WakeUps.NONE, WakeUps.NONE);
        }

        @Override
        public Receiver.Woken<T> block(int max, long millis, Receiver.CarriedAck ack) throws InterruptedException {
            engine.checkShardCount("wait"); // the pop may be this object's first command
            long now = System.nanoTime();
            if (upkeepDue(now)) {
                return Receiver.Woken.took(deliveries(reapAndClaim(Math.min(max, claimBatch), now)));
            }
            long wait = Math.min(millis, ceilMillis(untilUpkeep(now)));
            if (wait < RedisCalls.MIN_BLOCK_MILLIS) {
                // too short to send to Redis: wait here, then pop without blocking
                Thread.sleep(Math.max(0, wait));
                return Receiver.Woken.took(claim(max, ack).deliveries());
            }
            byte[] element = popWaiting(wait);
            if (element == null) {
                return Receiver.Woken.nothing();
            }
            if (engine.runtime().isClosing() || Thread.interrupted()) {
                giveBack(List.of(element));
                engine.runtime().checkReceiving();
                throw new InterruptedException();
            }
            return Receiver.Woken.took(deliveries(List.of(element)));
        }

        @Override
        public long pop() {
            return WakeUps.NONE;
        }

        @Override
        public void handOn(long millis) {}
    }

    private List<byte[]> reapAndClaim(int n, long now) {
        ListScripts.ClaimAtMostOnce.Result r = claim.run(n, lease, maxAttempts, retention);
        upkeepDone(now, r.nowMillis(), r.nextEventMillis());
        if (r.paused()) {
            pausing.learned(true);
        }
        return r.elements();
    }

    /**
     * Pops up to {@code n} without waiting (RPOP), with the read of the pause; null if none, or if
     * the queue is paused (what was popped is pushed back, in its order).
     */
    private List<byte[]> popReady(int n) {
        String what = engine.label() + ": receive";
        Took t = take(
                PendingAck.none(),
                new CommandArguments(Protocol.Command.RPOP).key(ready).add(n),
                () -> jedis.rpop(ready, n),
                what);
        @SuppressWarnings("unchecked") // RPOP with a count replies with bulk strings, or nil
        List<byte[]> popped = (List<byte[]>) PendingAck.checked(t.reply(), what);
        boolean took = popped != null && !popped.isEmpty();
        if (pausedAfter(t, took)) {
            if (took) {
                giveBack(popped);
            }
            return null;
        }
        return popped;
    }

    /**
     * Waits up to {@code millis} for one element (BRPOP), with the read of the pause; null if none
     * came, or if the queue is paused (it is pushed back).
     */
    private byte[] popWaiting(long millis) {
        String what = engine.label() + ": wait";
        double seconds = RedisCalls.blockSeconds(millis);
        Took t = take(
                PendingAck.none(),
                new CommandArguments(Protocol.Command.BRPOP)
                        .key(ready)
                        .add(seconds)
                        .blocking(),
                () -> {
                    KeyValue<byte[], byte[]> kv = jedis.brpop(seconds, ready);
                    return kv == null ? null : List.of(kv.getKey(), kv.getValue());
                },
                what);
        List<?> popped = (List<?>) PendingAck.checked(t.reply(), what);
        byte[] element = popped == null ? null : (byte[]) popped.get(1);
        if (pausedAfter(t, element != null)) {
            if (element != null) {
                giveBack(List.of(element));
            }
            return null;
        }
        return element;
    }

    private List<Delivery<T>> deliveries(List<byte[]> elements) {
        List<Delivery<T>> out = new ArrayList<>(elements.size());
        for (byte[] element : elements) {
            Envelope e = Envelope.parse(element);
            if (e != null) {
                out.add(new OnceDelivery<>(this, delivered(e)));
            } else {
                buryForeign(NONE, element);
            }
        }
        return out;
    }

    /**
     * Puts back elements popped (oldest first) for a caller that can no longer take them (closing,
     * interrupted, or the queue is paused), at the head of 'ready' in their order. At most once: a
     * failure loses them.
     */
    private void giveBack(List<byte[]> popped) {
        byte[][] back = new byte[popped.size()][];
        for (int i = 0; i < back.length; i++) {
            back[i] = popped.get(back.length - 1 - i); // RPUSH puts the last argument at the head
        }
        try {
            jedis.rpush(ready, back);
        } catch (JedisException e) {
            LOG.warn(
                    "{}: lost {} message(s) popped while closing, interrupted or paused",
                    engine.label(),
                    back.length,
                    e);
        }
    }

    /** Nothing is leased: a message is gone from Redis once handed out. */
    @Override
    public LeaseKeeper leaseKeeper() {
        return LeaseKeeper.none();
    }
}
