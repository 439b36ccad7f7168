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
 * shard of it), as seen by one queue object: when a receive claims, how long it waits and where
 * (on the list, or in this process while another receive of the object blocks there), and which
 * time it must hand on when it leaves. {@code docs/wake-up-protocol.md} states the protocol, its
 * invariant and why it holds. Pure but for {@link Receive#await}: it makes no call; a receive asks
 * {@link Receive#next()} what to do, does it, and reports what came of it. Thread-safe; one per
 * store and queue object.
 *
 * <p>The easy thing to get wrong: a wake-up taken off the list is a duty of the receive that took
 * it, kept until a claim made after it was taken discharges it; a receive that stops waiting hands
 * the earliest of its duties on ({@link Receive#leave()}), whatever ended its wait: to another
 * receive of the object that waits in this process, else back to the list.
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
    /** A lower bound of the server's clock, from the claims' replies: {@code syncMillis} at {@code syncNanos}. */
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
    /** The one receive of this object that blocks on the list (or is about to); null if none. */
    private Receive blocker;
    /** The receives that entered and have not left: who may take on a duty another leaves. */
    private final List<Receive> inside = new ArrayList<>();
    /** Counts what a receive waiting in this process must look at: the list freed, a duty handed to it. */
    private long changes;

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

    /** Whether a receive of this object blocks on the list (or is about to); for tests. */
    public synchronized boolean blocking() {
        return blocker != null;
    }

    /** How many receives of this object entered and have not left; for tests. */
    public synchronized int receives() {
        return inside.size();
    }

    /** Wakes the receives waiting in this process, to look again; guarded by this. */
    private void changed() {
        changes++;
        notifyAll();
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
        private boolean watched;
        private long claimSentNanos;
        private long claimSentAfter;
        /** {@link #changes} when this receive began to wait in this process. */
        private long seen;

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
                // the list is this receive's only while it blocks there: whatever it does next
                // instead, another may take it
                boolean wasBlocking = blocker == this;
                if (wasBlocking) {
                    blocker = null;
                }
                Step s = decide(now);
                if (wasBlocking && blocker != this) {
                    changed();
                }
                return s;
            }
        }

        private Step decide(long now) {
            long leftNanos = deadlineNanos - now;
            if (!entered) {
                entered = true;
                inside.add(this);
                if (!trusted(now, leftNanos)) {
                    if (synced && horizonClaimer == null && lastClaim + horizonMillis <= serverNow(now)) {
                        horizonClaimer = this;
                        return claim(Why.HORIZON, now);
                    }
                    return claim(Why.ENTER, now);
                }
            }
            long server = serverNow(now);
            long mine = earliest(this);
            if (claimNow || (mine != NONE && mine <= server)) {
                if (!claimNow && leftNanos > 0 && dischargedOnTheWay(mine)) {
                    // another receive's claim on its way discharges it: wait for its reply
                    seen = changes;
                    slept = false;
                    return new Step(Kind.SLEEP, Math.min(blockMillis, ceilMillis(leftNanos)));
                }
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
                if (slept && !popped && blocker == null && inside.size() == 1) {
                    // the last stretch was slept here with no one blocking, and no other receive
                    // of this object will: a wake-up pushed meanwhile waits on the list
                    popped = true;
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

        /**
         * Whether an entering receive may wait without a claim, the caller waiting long enough to
         * block: the latest claim found nothing claimable yet (or nothing within the horizon, and a
         * horizon claim on its way will say anew) and no duty is due, or a duty of this object
         * covers what it found.
         */
        private boolean trusted(long now, long leftNanos) {
            if (!synced || leftNanos < TimeUnit.MILLISECONDS.toNanos(minBlockMillis) || quiet == NONE) {
                return false;
            }
            long server = serverNow(now);
            long earliest = earliest(null);
            boolean stillQuiet =
                    quiet - server >= minBlockMillis || (horizonClaimer != null && quiet == lastClaim + horizonMillis);
            return (stillQuiet && (earliest == NONE || earliest > server)) || (earliest != NONE && earliest <= quiet);
        }

        /**
         * Whether a claim of another receive, on its way, discharges this one's duty for {@code time}
         * when its reply comes (rule 4): sent after the duty was taken, when its time had come.
         */
        private boolean dischargedOnTheWay(long time) {
            long takenAt = NONE;
            for (Duty d : duties) {
                if (d.owner == this && d.time == time) {
                    takenAt = d.taken;
                }
            }
            for (Receive r : inside) {
                if (r != this
                        && r.claiming != null
                        && r.claimSentAfter >= takenAt
                        && serverNow(r.claimSentNanos) >= time) {
                    return true;
                }
            }
            return false;
        }

        private Step claim(Why why, long now) {
            claiming = why;
            claimSentNanos = now;
            claimSentAfter = taken;
            // another receive of this object waits here, not on the list, to take on what it finds next
            watched = false;
            for (Receive r : inside) {
                watched |= r != this && r != blocker && r.claiming == null;
            }
            return watched ? Receiver.Step.CLAIM_WATCHED : Receiver.Step.CLAIM;
        }

        /**
         * A wait of {@code millis}: one that must end on time ({@code hard}: a due time, the
         * caller's deadline) blocks for all but the last tick and sleeps that here, since the
         * server may end a block up to a tick late; another blocks for all of it. Only one receive
         * of this object blocks at a time: while one does, the others wait here, all of it.
         */
        private Step waitFor(long millis, boolean hard) {
            long block = hard ? millis - tickMillis : millis;
            seen = changes;
            if (blocker == null && block >= minBlockMillis) {
                blocker = this;
                slept = false;
                return new Step(Kind.BLOCK, block);
            }
            slept = blocker == null;
            return new Step(Kind.SLEEP, Math.max(1, millis));
        }

        /**
         * Waits a {@link Kind#SLEEP} of {@code millis} in this process, or less if another receive
         * of this object stops blocking on the list or hands this one a duty meanwhile. On the
         * clock of {@link Object#wait}, so for {@link System#nanoTime} only.
         *
         * @throws InterruptedException if interrupted while it waits
         */
        @Override
        public void await(long millis) throws InterruptedException {
            synchronized (WakeUps.this) {
                long end = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(millis);
                for (long rest = end - nanoTime.getAsLong();
                        rest > 0 && changes == seen;
                        rest = end - nanoTime.getAsLong()) {
                    TimeUnit.NANOSECONDS.timedWait(WakeUps.this, rest);
                }
            }
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
                changed(); // a receive may wait for this reply
                if (horizonClaimer == this) {
                    horizonClaimer = null;
                }
                // the script ran after the claim was sent and before its reply came: the server's
                // clock read at least serverMillis now. Kept as a lower bound, so that a late reply
                // never makes a duty claimed early; a bound the server's clock contradicts goes
                if (!synced || serverMillis > serverNow(now) || serverNow(claimSentNanos) > serverMillis + 1) {
                    synced = true;
                    syncMillis = serverMillis;
                    syncNanos = now;
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
                } else if (took && watched && nextEventMillis > serverMillis) {
                    // a watched claim pushed no wake-up for an event still to come: this object covers it
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
         * Ends this receive, handing on the earliest of its duties (it covers the rest: its claim
         * takes what is due, or finds the next): to the receive of this object with the latest
         * deadline that waits in this process, if there is one, which then owns it; else returned,
         * to push back to the wake-up list. {@link #NONE} if nothing is to be pushed. Idempotent.
         */
        @Override
        public long leave() {
            synchronized (WakeUps.this) {
                if (left) {
                    return NONE;
                }
                left = true;
                inside.remove(this);
                if (horizonClaimer == this) {
                    horizonClaimer = null;
                }
                if (blocker == this || claiming != null) { // stopped blocking, or its claim failed
                    if (blocker == this) {
                        blocker = null;
                    }
                    changed();
                }
                Duty handOn = null;
                for (Duty d : duties) {
                    if (d.owner == this && (handOn == null || d.time < handOn.time)) {
                        handOn = d;
                    }
                }
                duties.removeIf(d -> d.owner == this);
                if (handOn == null) {
                    return NONE;
                }
                Receive heir = null;
                for (Receive r : inside) {
                    if (r != blocker && (heir == null || r.deadlineNanos - heir.deadlineNanos > 0)) {
                        heir = r;
                    }
                }
                if (heir == null) {
                    return handOn.time;
                }
                duties.add(new Duty(handOn.time, handOn.taken, heir));
                changed();
                return NONE;
            }
        }

        /**
         * Whether, since this receive began its {@link Kind#SLEEP}, another stopped blocking on the
         * list or handed it a duty: what ends {@link #await} early; for tests.
         */
        public boolean stirred() {
            synchronized (WakeUps.this) {
                return changes != seen;
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
