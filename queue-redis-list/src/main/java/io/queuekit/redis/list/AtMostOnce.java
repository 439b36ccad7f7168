package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.KeyValue;

/**
 * At-most-once: the textbook queue. A send is one LPUSH of an {@link Envelope}; a receive is one
 * BRPOP (RPOP, with a count for batches, when not waiting), and the message is gone from Redis
 * once popped.
 *
 * <p>Retries with a delay wait in the 'delayed' ZSET. No mover runs for them: about once per block
 * timeout, and when a retry this queue instance made falls due, one receive runs
 * {@code amo_fetch.lua} instead of the plain pop, which promotes due retries and pops in the same
 * round trip. Dead letters use the shared structures, so dead-letter listing, requeue and stats
 * work as in the at-least-once mode.
 */
final class AtMostOnce<T> extends ListMode<T> {
    private static final Logger LOG = LoggerFactory.getLogger(AtMostOnce.class);

    private final ListScripts.Fetch fetch;

    AtMostOnce(RedisContext<T> engine) {
        super(engine);
        this.fetch = new ListScripts.Fetch(engine);
    }

    @Override
    public List<Delivery<T>> receive(int max, long timeoutNanos) throws InterruptedException {
        // one message with time to wait: BRPOP alone, since it returns at once when one is ready
        return receive(max, timeoutNanos, timeoutNanos == 0 || Math.min(max, claimBatch) > 1);
    }

    @Override
    List<Delivery<T>> await(int max, long timeoutNanos) throws InterruptedException {
        return receive(max, timeoutNanos, false);
    }

    /** As {@link #receive(int, long)}; {@code popFirst}: pop without waiting before a first BRPOP. */
    private List<Delivery<T>> receive(int max, long timeoutNanos, boolean popFirst) throws InterruptedException {
        if (timeoutNanos > 0 && Thread.interrupted()) {
            throw new InterruptedException();
        }
        int n = Math.min(max, claimBatch);
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            engine.runtime().checkReceiving();
            engine.checkShardCount(); // the pop may be this object's first command
            List<byte[]> got = null;
            long now = System.nanoTime();
            if (upkeepDue(now)) {
                got = fetch(n, now);
            } else if (popFirst) {
                got = RedisCalls.call(engine.label() + ": receive", () -> jedis.rpop(ready, n));
            }
            if (got != null && !got.isEmpty()) {
                List<Delivery<T>> out = deliveries(got);
                if (!out.isEmpty()) {
                    return out;
                }
                continue;
            }
            now = System.nanoTime();
            long left = deadline - now;
            if (left <= 0) {
                return List.of();
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long millis = Math.min(Math.min(capMillis, ceilMillis(left)), ceilMillis(untilUpkeep(now)));
            if (millis <= 0) {
                continue;
            }
            if (millis < RedisCalls.MIN_BLOCK_MILLIS) {
                // too short to send to Redis: wait here, then pop (or fetch) without blocking
                Thread.sleep(millis);
                popFirst = true;
                continue;
            }
            KeyValue<byte[], byte[]> popped = RedisCalls.call(engine.label() + ": wait",
                    () -> jedis.brpop(RedisCalls.blockSeconds(millis), ready));
            if (popped == null) {
                continue;
            }
            byte[] element = popped.getValue();
            if (engine.runtime().isClosing() || Thread.interrupted()) {
                giveBack(element);
                engine.runtime().checkReceiving();
                throw new InterruptedException();
            }
            List<Delivery<T>> out = deliveries(List.of(element));
            if (!out.isEmpty()) {
                return out;
            }
        }
    }

    private List<byte[]> fetch(int n, long now) {
        ListScripts.Fetched r = fetch.run(n, lease, maxAttempts, retention);
        upkeepDone(now, r.nowMillis(), r.nextEventMillis());
        return r.elements();
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

    /** Puts back an element popped for a caller that can no longer take it. */
    private void giveBack(byte[] element) {
        try {
            jedis.rpush(ready, element);
        } catch (JedisException e) {
            LOG.warn("{}: lost a message popped while closing or interrupted", engine.label(), e);
        }
    }

    /** Nothing is leased: a message is gone from Redis once handed out. */
    @Override
    public LeaseKeeper leaseKeeper() {
        return LeaseKeeper.none();
    }
}
