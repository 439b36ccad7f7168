package io.queuekit.internal;

import io.queuekit.internal.Receiver.Kind;
import io.queuekit.internal.Receiver.Step;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Rule 10 of {@code docs/wake-up-protocol.md} for one store whose waits take messages themselves (a
 * list's {@code BLMOVE} or {@code BRPOP}) and one queue object: plans as {@link
 * Receiver#takingWaits} do, except that once the object is idle (a block ended with nothing, none
 * took anything since) one receive at a time blocks on the server, the others waiting in this
 * process until it takes something or stops blocking. Thread-safe.
 *
 * <p>The easy things to get wrong: a receive carrying an ack always blocks on the server, since the
 * ack rides its block; holding it here would send the ack alone, a round trip more per message. And
 * the holder's block may never come back (a connection gone silent, read with no socket timeout):
 * the gate is the holder's only until its block should have ended, plus half a block timeout, after
 * which the next receive to look passes it over and blocks in its place.
 */
public final class IdleGate {
    private final LongSupplier nanoTime;
    private final long blockMillis;

    // all guarded by this
    /** A block of this object ended with nothing, and nothing was taken since. */
    private boolean idle;
    /** The one receive that blocks while the object is idle (or is about to); null if none. */
    private Receive holder;
    /** When {@link #holder}'s block should have ended, plus a grace: then it is passed over. */
    private long heldUntilNanos;
    /** Counts takes: a block planned before one cannot make the object idle by ending empty. */
    private long takes;
    /** Counts what a receive waiting in this process must look at: the gate freed, the object busy. */
    private long changes;

    /**
     * @param nanoTime this process's clock ({@link System#nanoTime}, or a virtual one)
     * @param blockMillis the longest block sent to the server (the block timeout)
     */
    public IdleGate(LongSupplier nanoTime, long blockMillis) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        if (blockMillis < 1) {
            throw new IllegalArgumentException("block timeout must be at least 1 ms: " + blockMillis);
        }
        this.blockMillis = blockMillis;
    }

    /**
     * The plans of this object's receives: a claim first if {@code claimFirst} says so for the batch
     * asked for, then waits of at most a block timeout until the caller's deadline, gated while idle.
     */
    public Receiver.Plans plans(IntPredicate claimFirst) {
        Objects.requireNonNull(claimFirst, "claimFirst");
        return new Receiver.Plans() {
            @Override
            public Receive begin(int max, long timeoutNanos) {
                return begin(max, timeoutNanos, false);
            }

            @Override
            public Receive begin(int max, long timeoutNanos, boolean carrying) {
                return new Receive(nanoTime.getAsLong() + timeoutNanos, claimFirst.test(max), carrying);
            }
        };
    }

    /** Stirs every receive waiting in this process, to look again (the queue closes); idempotent. */
    public synchronized void stir() {
        changed();
    }

    /** Whether the object is idle; for tests. */
    public synchronized boolean idle() {
        return idle;
    }

    private void changed() {
        changes++;
        notifyAll();
    }

    /** One receive, used by one thread, as {@link Receiver.Plan} says. */
    public final class Receive implements Receiver.Plan {
        private final long deadlineNanos;
        private boolean claimFirst;
        private boolean carrying;
        private boolean left;
        /** {@link #changes} when this receive began to wait in this process. */
        private long seen;
        /** {@link #takes} when this receive's last block was planned. */
        private long takesAtBlock;

        private Receive(long deadlineNanos, boolean claimFirst, boolean carrying) {
            this.deadlineNanos = deadlineNanos;
            this.claimFirst = claimFirst;
            this.carrying = carrying;
        }

        @Override
        public Step next() {
            long now = nanoTime.getAsLong();
            synchronized (IdleGate.this) {
                if (left) {
                    throw new IllegalStateException("this receive has left");
                }
                // the gate is this receive's only while it blocks: whatever it does next instead,
                // another may take it
                boolean held = holder == this;
                if (held) {
                    holder = null;
                }
                Step s = decide(now);
                if (held && holder != this) {
                    changed();
                }
                return s;
            }
        }

        private Step decide(long now) {
            if (claimFirst) {
                claimFirst = false;
                carrying = false; // the claim carries the ack
                return Step.CLAIM;
            }
            long rest = deadlineNanos - now;
            if (rest <= 0) {
                return Step.RETURN;
            }
            long millis = Math.min(blockMillis, rest / 1_000_000 + (rest % 1_000_000 == 0 ? 0 : 1));
            takesAtBlock = takes;
            if (carrying || !idle) {
                carrying = false; // the block carries the ack
                return new Step(Kind.BLOCK, millis);
            }
            if (holder == null || now - heldUntilNanos > 0) {
                // free, or its holder's block is overdue (its connection may be gone): block here
                holder = this;
                heldUntilNanos = now + TimeUnit.MILLISECONDS.toNanos(millis + blockMillis / 2);
                return new Step(Kind.BLOCK, millis);
            }
            seen = changes;
            long overdueIn = heldUntilNanos - now;
            return new Step(Kind.SLEEP, Math.min(millis, overdueIn / 1_000_000 + 1));
        }

        @Override
        public void claimed(long serverMillis, long nextEventMillis, boolean took) {
            if (took) {
                took();
            }
        }

        /**
         * A block ended with nothing: the object is idle, unless something was taken since the
         * block was planned (its empty reply is older than that take).
         */
        @Override
        public void woke(long signalMillis) {
            synchronized (IdleGate.this) {
                if (takes == takesAtBlock) {
                    idle = true;
                }
            }
        }

        /** A block or claim took something: the object is busy, and every receive blocks on its own. */
        @Override
        public void took() {
            synchronized (IdleGate.this) {
                takes++;
                if (idle) {
                    idle = false;
                    changed();
                }
            }
        }

        @Override
        public long leave() {
            synchronized (IdleGate.this) {
                if (!left) {
                    left = true;
                    if (holder == this) {
                        holder = null;
                        changed();
                    }
                }
            }
            return WakeUps.NONE;
        }

        /**
         * Waits a {@link Kind#SLEEP} of {@code millis} in this process, or less if stirred meanwhile.
         * On the clock of {@link Object#wait}, so for {@link System#nanoTime} only.
         *
         * @throws InterruptedException if interrupted while it waits
         */
        @Override
        public void await(long millis) throws InterruptedException {
            synchronized (IdleGate.this) {
                long end = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(millis);
                for (long rest = end - nanoTime.getAsLong();
                        rest > 0 && changes == seen;
                        rest = end - nanoTime.getAsLong()) {
                    TimeUnit.NANOSECONDS.timedWait(IdleGate.this, rest);
                }
            }
        }

        /** Whether this receive holds the gate: it blocks, or is about to, while the object is idle; for tests. */
        public boolean holds() {
            synchronized (IdleGate.this) {
                return holder == this;
            }
        }

        /** Whether this receive was stirred since it began its {@link Kind#SLEEP}; for tests. */
        public boolean stirred() {
            synchronized (IdleGate.this) {
                return changes != seen;
            }
        }
    }
}
