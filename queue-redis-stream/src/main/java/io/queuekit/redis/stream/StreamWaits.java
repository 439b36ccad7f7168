package io.queuekit.redis.stream;

import io.queuekit.internal.Receiver;
import io.queuekit.internal.WakeUps;
import io.queuekit.redis.internal.RedisCalls;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a group's receiver waits between claims (docs/wake-up-protocol.md, "Stream topics"): claim;
 * if nothing came, block in {@code XREAD} on the stream after the last entry the claim saw, for
 * the time until the claim's next event (a retry due, a lease expiring), at most the block timeout;
 * then claim again. A publish after the claim ends the wait at once, as {@code XREAD} returns for
 * any entry after the one it is given, so no publish is missed between a claim and its wait; a
 * retry or lease of another object's making is seen within one block timeout. There is no
 * wake-up list to hand on: each receive watches for itself.
 */
final class StreamWaits implements Receiver.Plans {
    static final long NONE = WakeUps.NONE;

    /**
     * What a claim this thread made just before the receive said: when it ran ({@code nanoTime})
     * and the milliseconds from then until the group's next event (-1 if none), rounded up.
     */
    record Seed(long claimedNanos, long untilEventMillis) {
        /** The seed of a claim that ran now and replied {@code nextEventMillis} at {@code serverMillis}. */
        static Seed of(long nanos, long serverMillis, long nextEventMillis) {
            // a millisecond late rather than early: the server's clock is truncated to the ms
            return new Seed(nanos, nextEventMillis < 0 ? -1 : Math.max(0, nextEventMillis - serverMillis) + 1);
        }
    }

    private final LongSupplier nanoTime;
    private final long blockMillis;
    private final Supplier<Seed> seed;

    StreamWaits(LongSupplier nanoTime, long blockMillis) {
        this(nanoTime, blockMillis, () -> null);
    }

    /**
     * Plans that begin with a wait, not a claim, where {@code seed} gives the claim this thread
     * has just made (its wait then reads after what that claim saw); with a claim where it gives
     * null.
     */
    StreamWaits(LongSupplier nanoTime, long blockMillis, Supplier<Seed> seed) {
        this.nanoTime = nanoTime;
        this.blockMillis = blockMillis;
        this.seed = seed;
    }

    @Override
    public Receiver.Plan begin(int max, long timeoutNanos) {
        Plan p = new Plan(nanoTime.getAsLong() + timeoutNanos);
        Seed s = seed.get();
        if (s != null) {
            p.claim = false;
            p.claimedNanos = s.claimedNanos();
            p.untilEventMillis = s.untilEventMillis();
        }
        return p;
    }

    private final class Plan implements Receiver.Plan {
        private final long deadline;
        private boolean claim = true;
        /** When the last claim ran, here, and what it said of the next event on the server's clock. */
        private long claimedNanos;

        private long untilEventMillis = -1;

        Plan(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public Receiver.Step next() {
            if (claim) {
                claim = false;
                return new Receiver.Step(Receiver.Kind.CLAIM, 0);
            }
            long now = nanoTime.getAsLong();
            long left = deadline - now;
            if (left <= 0) {
                return new Receiver.Step(Receiver.Kind.RETURN, 0);
            }
            long wait = Math.min(blockMillis, ceilMillis(left));
            if (untilEventMillis >= 0) {
                long untilEvent = untilEventMillis - (now - claimedNanos) / 1_000_000;
                if (untilEvent <= 0) {
                    return new Receiver.Step(Receiver.Kind.CLAIM, 0);
                }
                wait = Math.min(wait, untilEvent);
            }
            claim = true;
            if (wait < RedisCalls.MIN_BLOCK_MILLIS) {
                return new Receiver.Step(Receiver.Kind.SLEEP, wait);
            }
            return new Receiver.Step(Receiver.Kind.BLOCK, wait);
        }

        @Override
        public void claimed(long serverMillis, long nextEventMillis, boolean took) {
            Seed s = Seed.of(nanoTime.getAsLong(), serverMillis, nextEventMillis);
            claimedNanos = s.claimedNanos();
            untilEventMillis = s.untilEventMillis();
        }

        @Override
        public void woke(long signalMillis) {}

        @Override
        public long leave() {
            return NONE;
        }
    }

    private static long ceilMillis(long nanos) {
        return nanos / 1_000_000 + (nanos % 1_000_000 == 0 ? 0 : 1);
    }
}
