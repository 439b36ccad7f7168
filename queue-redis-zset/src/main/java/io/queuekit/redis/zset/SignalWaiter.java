package io.queuekit.redis.zset;

import io.queuekit.redis.internal.RedisCalls;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.KeyValue;

/**
 * How the consumers of one delay queue's storage (of one shard, on a sharded queue) wait between
 * claims ({@link ZsetStore.Waiter}): on the storage's {@code signal} list, with one consumer of
 * this queue object watching the next due time and the others waiting for its wake-up.
 */
final class SignalWaiter implements ZsetStore.Waiter {
    /** The server's timer tick at its default {@code hz} of 10: how late a blocking timeout can fire. */
    static final long TICK_MILLIS = 100;
    private static final long NO_TIMEKEEPER = Long.MIN_VALUE;

    private final UnifiedJedis jedis;
    private final String signalKey;
    private final long blockMillis;
    /** The System.nanoTime a timekeeper of this storage waits for, or {@link #NO_TIMEKEEPER}. */
    private final AtomicLong timekeeper = new AtomicLong(NO_TIMEKEEPER);

    /**
     * @param signalKey the storage's signal list
     * @param blockMillis the queue's block timeout
     */
    SignalWaiter(UnifiedJedis jedis, String signalKey, long blockMillis) {
        this.jedis = jedis;
        this.signalKey = signalKey;
        this.blockMillis = blockMillis;
    }

    /**
     * The wait between claims. A wait of the full block timeout blocks on the signal
     * list. A shorter one ends at a due time or at the caller's deadline: it blocks until one timer
     * tick before it, and sleeps the last tick here, since the server would end the block only at
     * its next tick, up to 100 ms late. One that ends at the deadline reads the list at least once.
     */
    @Override
    public long await(long millis, long patienceMillis) {
        if (millis < patienceMillis) {
            // waiting for a due time: one consumer of this queue watches the clock and the others
            // wait for its wake-up, so that a due message costs one claim rather than one per
            // consumer; one that learnt of an earlier due time (from a signal) takes over watching
            long target = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (true) {
                long watched = timekeeper.get();
                if (watched != NO_TIMEKEEPER && watched - target <= 0) {
                    long signal = block(patienceMillis);
                    return signal == NO_SIGNAL ? WATCHED : signal;
                }
                if (timekeeper.compareAndSet(watched, target)) {
                    break;
                }
            }
            try {
                return awaitDue(millis, false); // its caller claims at the due time
            } finally {
                timekeeper.compareAndSet(target, NO_TIMEKEEPER);
            }
        }
        return awaitDue(millis, true);
    }

    /**
     * Waits {@code millis}, blocked on the signal list for all of it but the last tick. One that
     * {@code mustRead} (one whose caller, if no signal came, returns without claiming, trusting an
     * earlier claim's finding that nothing was claimable) reads the list at least once: one too
     * short to block reads it without blocking when it ends. Otherwise a caller that only ever
     * waits that briefly, as a loop of short polls does, would never see a send's signal, and a
     * message sent meanwhile would wait until that finding expired.
     */
    private long awaitDue(long millis, boolean mustRead) {
        if (millis >= blockMillis) {
            return block(millis);
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean blocks = millis - TICK_MILLIS >= RedisCalls.MIN_BLOCK_MILLIS;
        if (blocks) {
            long signal = block(millis - TICK_MILLIS);
            if (signal != NO_SIGNAL) {
                return signal;
            }
        }
        // the rest, here: a claim now would come before the due time and find nothing
        sleep(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime() + 999_999));
        return mustRead && !blocks ? popNow() : NO_SIGNAL;
    }

    /**
     * Blocks on the signal list; a wait too short to send to Redis is slept here, then the list
     * read without blocking. Returns the time the signal names, or {@link #NO_SIGNAL}.
     */
    private long block(long millis) {
        if (millis < RedisCalls.MIN_BLOCK_MILLIS) {
            sleep(millis);
            return popNow();
        }
        KeyValue<String, String> popped = jedis.blpop(RedisCalls.blockSeconds(millis), signalKey);
        return popped == null ? NO_SIGNAL : signalTime(popped.getValue());
    }

    /**
     * Takes a signal off the list if one is there, without blocking; not once interrupted, since
     * the receive then ends without the claim a signal would call for.
     */
    private long popNow() {
        if (Thread.currentThread().isInterrupted()) {
            return NO_SIGNAL;
        }
        String popped = jedis.lpop(signalKey);
        return popped == null ? NO_SIGNAL : signalTime(popped);
    }

    /** The time a signal names (one that is not a number, as an older version pushed, means now). */
    private static long signalTime(String signal) {
        try {
            return Math.max(0, Long.parseLong(signal));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
