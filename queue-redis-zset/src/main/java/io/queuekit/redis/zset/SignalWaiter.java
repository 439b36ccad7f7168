package io.queuekit.redis.zset;

import io.queuekit.redis.internal.RedisCalls;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
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

    private final UnifiedJedis jedis;
    private final String signalKey;
    private final long blockMillis;
    /** What the timekeeper of this storage watches, or null. */
    private final AtomicReference<Watch> timekeeper = new AtomicReference<>();

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
    public long await(long millis, long patienceMillis, long eventMillis) {
        if (millis >= patienceMillis) {
            return awaitDeadline(millis);
        }
        // waiting for a due time: one consumer of this queue watches the clock and the others
        // wait for its wake-up, so that a due message costs one claim rather than one per
        // consumer. One that learnt of an earlier due time (from a signal), or that counts down to
        // the same one on a clock estimate that ends sooner, takes over watching, and the one it
        // replaced stands down to wait for a wake-up: two watching one due time would both claim
        long now = System.nanoTime();
        Watch mine = new Watch(eventMillis, now + TimeUnit.MILLISECONDS.toNanos(millis), Thread.currentThread());
        if (!takeWatch(mine)) {
            return awaitWatched(patienceMillis);
        }
        try {
            return watch(mine, now + TimeUnit.MILLISECONDS.toNanos(patienceMillis));
        } finally {
            timekeeper.compareAndSet(mine, null);
        }
    }

    /**
     * The timekeeper's wait for its due time, blocked on the signal list for all of it but the last
     * tick, which it waits here: a claim sooner would find nothing, and its caller claims after.
     * Replaced meanwhile, it waits for a wake-up instead, until a tick past its due time at most
     * and never past {@code patienceEnd} (System.nanoTime).
     */
    private long watch(Watch mine, long patienceEnd) {
        long millis = TimeUnit.NANOSECONDS.toMillis(mine.targetNanos() - System.nanoTime() + 999_999);
        long signal = blockAllButTheLastTick(millis);
        if (signal != NO_SIGNAL) {
            return signal;
        }
        while (true) {
            long now = System.nanoTime();
            if (Thread.currentThread().isInterrupted()) {
                return NO_SIGNAL;
            }
            if (!takeWatch(mine)) {
                // stood down, for no longer than a tick past its own due time: then its caller
                // claims unless a claim since vouches that nothing is claimable yet, so that a due
                // time whose new watcher left without claiming (its caller's deadline came) is not
                // left unwatched until the block timeout
                long end = Math.min(patienceEnd, mine.targetNanos() + TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
                long left = TimeUnit.NANOSECONDS.toMillis(end - now);
                return left > 0 ? awaitWatched(left) : WATCHED;
            }
            if (mine.targetNanos() - now <= 0) {
                return NO_SIGNAL;
            }
            LockSupport.parkNanos(this, mine.targetNanos() - now);
        }
    }

    /**
     * Makes {@code mine} the watch of this storage, or keeps it so, unless another watches a due
     * time no later: then false. One it replaces is woken to stand down. A watch that ended while
     * this one blocked (it was replaced, and the one that replaced it claimed and left) is taken
     * back, since no one else watches this due time.
     */
    private boolean takeWatch(Watch mine) {
        while (true) {
            Watch watched = timekeeper.get();
            if (watched == mine) {
                return true;
            }
            if (watched != null && watched.before(mine)) {
                return false;
            }
            if (timekeeper.compareAndSet(watched, mine)) {
                if (watched != null) {
                    LockSupport.unpark(watched.thread());
                }
                return true;
            }
        }
    }

    /** The due time (server's clock) the timekeeper of this storage watches, or -1; for tests. */
    long watchedEventMillis() {
        Watch w = timekeeper.get();
        return w == null ? -1 : w.eventMillis();
    }

    /** A wait for a wake-up while another consumer watches a due time no later than the caller's. */
    private long awaitWatched(long patienceMillis) {
        long signal = block(patienceMillis);
        return signal == NO_SIGNAL ? WATCHED : signal;
    }

    /**
     * A timekeeper's due time, on the server's clock as claims and signals name it, and when its
     * estimate of that clock reaches it (System.nanoTime); each watch an object of its own.
     */
    private record Watch(long eventMillis, long targetNanos, Thread thread) {
        /** Whether this watch claims no later than {@code other} would: so other need not watch. */
        boolean before(Watch other) {
            return eventMillis < other.eventMillis
                    || eventMillis == other.eventMillis && targetNanos - other.targetNanos <= 0;
        }
    }

    /**
     * A wait that ends at the caller's deadline, blocked on the signal list for all of it but the
     * last tick. It reads the list at least once, since its caller, if no signal came, returns
     * without claiming, trusting an earlier claim's finding that nothing was claimable: one too
     * short to block reads it without blocking as it ends. Otherwise a caller that only ever waits
     * that briefly, as a loop of short polls does, would never see a send's signal, and a message
     * sent meanwhile would wait until that finding expired.
     */
    private long awaitDeadline(long millis) {
        if (millis >= blockMillis) {
            return block(millis);
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean blocks = blocksAllButTheLastTick(millis);
        long signal = blockAllButTheLastTick(millis);
        if (signal != NO_SIGNAL) {
            return signal;
        }
        sleep(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime() + 999_999));
        return blocks ? NO_SIGNAL : popNow();
    }

    /** Whether a wait of {@code millis} is long enough to block in Redis for all of it but a tick. */
    private static boolean blocksAllButTheLastTick(long millis) {
        return millis - TICK_MILLIS >= RedisCalls.MIN_BLOCK_MILLIS;
    }

    /**
     * The part of a wait of {@code millis} spent blocked on the signal list: all of it but the last
     * tick, or none if that is too short to block. Returns the signal, or {@link #NO_SIGNAL}.
     */
    private long blockAllButTheLastTick(long millis) {
        return blocksAllButTheLastTick(millis) ? block(millis - TICK_MILLIS) : NO_SIGNAL;
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
     * the receive then ends without the claim a signal would call for. {@code RPOP}: the list holds
     * one signal at most, and the user rights the README lists for a queue grant it, not
     * {@code LPOP}.
     */
    private long popNow() {
        if (Thread.currentThread().isInterrupted()) {
            return NO_SIGNAL;
        }
        String popped = jedis.rpop(signalKey);
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
