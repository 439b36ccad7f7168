package io.queuekit.internal;

import io.queuekit.internal.Receiver.Kind;
import io.queuekit.internal.Receiver.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The wake-up protocol of one store whose consumers wait on a wake-up list (the delay queue, or one
 * shard of it), as seen by one queue object: when a receive claims, how long it waits, and which
 * time it must hand on when it leaves. {@code docs/wake-up-protocol.md} states the protocol, its
 * invariant and why it holds. Pure: it makes no call; a receive asks {@link Receive#next()} what to
 * do, does it, and reports what came of it. Thread-safe; one per store and queue object.
 *
 * <p>The easy thing to get wrong: a wake-up taken off the list is a duty of the receive that took
 * it, kept until a claim made after it was taken discharges it; a receive that stops waiting hands
 * the earliest of its duties back ({@link Receive#leave()}), whatever ended its wait.
 */
public final class WakeUps implements Receiver.Plans {
    /** No time: no wake-up, no duty, nothing known. */
    public static final long NONE = -1;

    /** Why a receive claims: a horizon claim's finding is a duty whatever it discharged. */
    private enum Why {
        ENTER,
        DUTY,
        HORIZON
    }

    /** A time (server ms) a receive must claim at, with when it was taken (a count of this object's). */
    private record Duty(long time, long taken, Receive owner) {}

    private final LongSupplier nanoTime;
    private final long blockMillis;
    private final long horizonMillis;
    private final long tickMillis;
    private final long minBlockMillis;

    // all guarded by this
    /** The server's clock as the latest claim read it: {@code syncMillis} at {@code syncNanos}. */
    private boolean synced;

    private long syncMillis;
    private long syncNanos;
    /** Every duty of this object's receives. */
    private final List<Duty> duties = new ArrayList<>();

    private long taken;
    /** A claim found nothing claimable before this (server ms); NONE: nothing trusted. */
    private long quiet = NONE;
    /**
     * The server time of the latest claim: an older reply does not replace what it found, and the
     * next horizon claim is due a horizon after it.
     */
    private long lastClaim = NONE;
    /** The receive making a horizon claim, so that one at a time does. */
    private Receive horizonClaimer;

    /**
     * @param nanoTime this process's clock ({@link System#nanoTime}, or a virtual one)
     * @param blockMillis the longest block on the wake-up list (the block timeout)
     * @param horizonMillis how long a claim's finding is trusted: a duty lost with a process that
     *     died is claimed at most this late
     * @param tickMillis how late the server may end a block (its timer tick): a wait that must end
     *     on time blocks until this much before, and sleeps the rest here
     * @param minBlockMillis the shortest block sent to the server; shorter waits are slept here
     */
    public WakeUps(LongSupplier nanoTime, long blockMillis, long horizonMillis, long tickMillis, long minBlockMillis) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        if (blockMillis < 1 || horizonMillis < 1 || tickMillis < 0 || minBlockMillis < 1) {
            throw new IllegalArgumentException("block " + blockMillis + " ms, horizon " + horizonMillis + " ms, tick "
                    + tickMillis + " ms, shortest block " + minBlockMillis + " ms");
        }
        this.blockMillis = blockMillis;
        this.horizonMillis = horizonMillis;
        this.tickMillis = tickMillis;
        this.minBlockMillis = minBlockMillis;
    }

    /** A receive that waits up to {@code timeoutNanos} (more than zero) for what it claims; any batch. */
    @Override
    public Receive begin(int max, long timeoutNanos) {
        return new Receive(nanoTime.getAsLong() + timeoutNanos);
    }

    /** The earliest time a receive of this object must claim at (server ms), or {@link #NONE}; for tests. */
    public synchronized long duty() {
        return earliest(null);
    }

    /** The earliest duty of {@code owner}, or of every receive if null; NONE if none. */
    private long earliest(Receive owner) {
        long t = NONE;
        for (Duty d : duties) {
            if ((owner == null || d.owner == owner) && (t == NONE || d.time < t)) {
                t = d.time;
            }
        }
        return t;
    }

    /** The server's time now, as estimated from the latest claim; valid once synced. */
    private long serverNow(long nowNanos) {
        return syncMillis + Math.floorDiv(nowNanos - syncNanos, 1_000_000);
    }

    /**
     * One receive, used by one thread: {@link #next()} until it returns {@link Kind#RETURN} or the
     * caller has what it claimed, then {@link #leave()}, always (in a {@code finally}).
     */
    public final class Receive implements Receiver.Plan {
        private final long deadlineNanos;
        private boolean entered;
        private boolean claimNow;
        private boolean popped;
        private boolean slept;
        private boolean left;
        private Why claiming;
        private long claimSentNanos;
        private long claimSentAfter;

        private Receive(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        /** What to do next. */
        @Override
        public Step next() {
            long now = nanoTime.getAsLong();
            synchronized (WakeUps.this) {
                if (left) {
                    throw new IllegalStateException("this receive has left");
                }
                long leftNanos = deadlineNanos - now;
                if (!entered) {
                    entered = true;
                    if (!trusted(now, leftNanos)) {
                        return claim(Why.ENTER, now);
                    }
                }
                long server = serverNow(now);
                long mine = earliest(this);
                if (claimNow || (mine != NONE && mine <= server)) {
                    claimNow = false;
                    return claim(Why.DUTY, now);
                }
                long untilHorizon = lastClaim + horizonMillis - server;
                if (untilHorizon <= 0 && horizonClaimer == null) {
                    horizonClaimer = this;
                    return claim(Why.HORIZON, now);
                }
                if (horizonClaimer != null) {
                    untilHorizon = blockMillis;
                }
                if (leftNanos <= 0) {
                    if (slept && !popped) {
                        popped = true; // the last stretch was slept here: a wake-up pushed meanwhile waits on the list
                        return Receiver.Step.POP;
                    }
                    return Receiver.Step.RETURN;
                }
                long untilDeadline = ceilMillis(leftNanos);
                if (mine != NONE) {
                    // its own duty, or the horizon or the deadline before it: all must end on time
                    return waitFor(Math.min(Math.min(mine - server, untilHorizon), untilDeadline), true);
                }
                long soft = Math.min(blockMillis, untilHorizon);
                return untilDeadline <= soft ? waitFor(untilDeadline, true) : waitFor(soft, false);
            }
        }

        /**
         * Whether an entering receive may wait without a claim: the latest claim found nothing
         * claimable yet, no duty is due, and the caller waits long enough to block.
         */
        private boolean trusted(long now, long leftNanos) {
            if (!synced || leftNanos < TimeUnit.MILLISECONDS.toNanos(minBlockMillis) || quiet == NONE) {
                return false;
            }
            long server = serverNow(now);
            long earliest = earliest(null);
            return quiet - server >= minBlockMillis && (earliest == NONE || earliest > server);
        }

        private Step claim(Why why, long now) {
            claiming = why;
            claimSentNanos = now;
            claimSentAfter = taken;
            return Receiver.Step.CLAIM;
        }

        /**
         * A wait of {@code millis}: one that must end on time ({@code hard}: a due time, the
         * caller's deadline) blocks for all but the last tick and sleeps that here, since the
         * server may end a block up to a tick late; another blocks for all of it.
         */
        private Step waitFor(long millis, boolean hard) {
            long block = hard ? millis - tickMillis : millis;
            if (block >= minBlockMillis) {
                slept = false;
                return new Step(Kind.BLOCK, block);
            }
            slept = true;
            return new Step(Kind.SLEEP, Math.max(1, millis));
        }

        /**
         * What a {@link Kind#CLAIM} found: the server's time {@code serverMillis} when it ran, when
         * something next becomes claimable ({@code nextEventMillis}, or {@link #NONE}), and whether
         * it took anything ({@code took}: its script then woke another consumer for the rest).
         */
        @Override
        public void claimed(long serverMillis, long nextEventMillis, boolean took) {
            long now = nanoTime.getAsLong();
            synchronized (WakeUps.this) {
                Why why = claiming;
                if (why == null) {
                    throw new IllegalStateException("no claim was asked for");
                }
                claiming = null;
                if (horizonClaimer == this) {
                    horizonClaimer = null;
                }
                long at = claimSentNanos + (now - claimSentNanos) / 2; // the script ran about midway
                if (!synced || serverMillis >= syncMillis) { // not from a reply older than the last one
                    synced = true;
                    syncMillis = serverMillis;
                    syncNanos = at;
                }
                // trusted for at most the horizon, when a claim recovers what a process that died held
                if (serverMillis >= lastClaim) {
                    lastClaim = serverMillis;
                    quiet = took && nextEventMillis >= 0 && nextEventMillis <= serverMillis
                            ? NONE
                            : nextEventMillis < 0
                                    ? serverMillis + horizonMillis
                                    : Math.min(nextEventMillis, serverMillis + horizonMillis);
                }
                // a duty taken before the claim was sent is discharged if it was due when the claim
                // ran (what was due then was taken, or the claim woke another consumer for the rest),
                // or whatever its time if the claim took something (its script woke another consumer
                // for the next event, no later than any such duty's). One taken since may be that
                // very wake-up, or one for a message sent since, and stays
                boolean discharged =
                        duties.removeIf(d -> d.taken <= claimSentAfter && (took || d.time <= serverMillis));
                if (!took && (discharged || why == Why.HORIZON) && nextEventMillis >= 0) {
                    // what the claim found replaces what it discharged; a horizon claim's finding
                    // replaces duties that may have been lost with a process that died
                    duties.add(new Duty(nextEventMillis, ++taken, this));
                }
            }
        }

        /** What a {@link Kind#BLOCK} or {@link Kind#POP} took off the list: a time, or {@link #NONE}. */
        @Override
        public void woke(long signalMillis) {
            if (signalMillis == NONE) {
                return;
            }
            long now = nanoTime.getAsLong();
            synchronized (WakeUps.this) {
                duties.add(new Duty(signalMillis, ++taken, this));
                claimNow |= signalMillis <= serverNow(now);
            }
        }

        /**
         * Ends this receive: the earliest of its duties, to hand on by pushing it back to the wake-up
         * list (it covers the rest: its claim takes what is due, or finds the next), or {@link #NONE}.
         * Idempotent.
         */
        @Override
        public long leave() {
            synchronized (WakeUps.this) {
                if (left) {
                    return NONE;
                }
                left = true;
                if (horizonClaimer == this) {
                    horizonClaimer = null;
                }
                long handOn = earliest(this);
                duties.removeIf(d -> d.owner == this);
                return handOn;
            }
        }

        /** Whether this receive holds a duty; for tests. */
        public boolean holds() {
            synchronized (WakeUps.this) {
                return earliest(this) != NONE;
            }
        }
    }

    private static long ceilMillis(long nanos) {
        return nanos / 1_000_000 + (nanos % 1_000_000 == 0 ? 0 : 1);
    }
}
