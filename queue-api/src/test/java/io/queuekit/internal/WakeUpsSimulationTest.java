package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.internal.Receiver.Step;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The wake-up protocol ({@link WakeUps}, {@code docs/wake-up-protocol.md}) under random
 * interleavings on a virtual clock: queue objects in several processes, each with several consumers
 * polling with short and long timeouts, against a model of the delay queue's storage (claims that
 * reap, take in due order and wake another consumer for the rest; sends that wake for a new earliest
 * time; one wake-up at most on the list; blocks the server ends up to a timer tick late). Requests
 * run on the server and their replies arrive after random delays, so replies of different consumers
 * arrive in any order; objects close (a rolling deploy) and processes die (taking their duties and
 * the replies on their way with them).
 *
 * <p>On every step it checks the invariant: the earliest time something becomes claimable is
 * covered, by a wake-up on the list naming it or an earlier time, by a live object's duty, or by a
 * wake-up on its way to a live consumer, except after a death, and then again within the horizon;
 * and the bound: while a consumer waits, the earliest claimable message is claimed within
 * {@link #bound} of the moment it became claimable and earliest. A failure names its seed: rerun
 * it alone with {@code -Dwakeups.seed=<seed>}.
 */
class WakeUpsSimulationTest {
    private static final long MS = 1_000_000;
    private static final long TICK_MS = 100;
    private static final long MIN_BLOCK_MS = 10;
    private static final int SEEDS = Integer.getInteger("wakeups.seeds", 300);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyInterleaving_keepsTheEarliestDueTimeCovered_andClaimsItWithinTheBound() {
        String one = System.getProperty("wakeups.seed");
        long first = one == null ? 0 : Long.parseLong(one);
        long last = one == null ? SEEDS : first + 1;
        long worst = 0;
        long claims = 0;
        long messages = 0;
        long handOns = 0;
        long blocks = 0;
        long pops = 0;
        for (long seed = first; seed < last; seed++) {
            Sim sim = new Sim(seed);
            try {
                sim.run();
            } catch (AssertionError e) {
                throw new AssertionError(
                        "seed " + seed + " (rerun with -Dwakeups.seed=" + seed + "): " + e.getMessage()
                                + "\nlast steps:\n" + String.join("\n", sim.trace),
                        e);
            }
            worst = Math.max(worst, sim.worstLateness);
            claims += sim.claims;
            messages += sim.taken;
            handOns += sim.handOns;
            blocks += sim.blocks;
            pops += sim.pops;
        }
        System.out.printf(
                "wake-up simulation: %d seeds, %d messages claimed by %d claims, %d wake-ups handed on, %d blocks "
                        + "and %d reads of the list; worst lateness within the bound %.1f ms%n",
                last - first, messages, claims, handOns, blocks, pops, worst / (double) MS);
        assertThat(messages).isPositive();
    }

    /** One run: a model server, processes with queue objects and consumers, producers. */
    private static final class Sim {
        final Random rnd;
        final List<String> trace = new ArrayList<>();
        long now; // virtual nanoseconds
        long seq;
        final PriorityQueue<Ev> events =
                new PriorityQueue<>(Comparator.comparingLong(Ev::at).thenComparingLong(Ev::seq));

        // settings drawn for the run
        final long blockMs;
        final long leaseMs;
        final long horizonMs;
        final long rttNanos;
        final int batch;
        final long endNanos;
        final long bound;

        // the server
        final TreeSet<Msg> ready =
                new TreeSet<>(Comparator.comparingLong(Msg::due).thenComparingLong(Msg::seq));
        final TreeSet<Lease> leases =
                new TreeSet<>(Comparator.comparingLong(Lease::expiry).thenComparingLong(Lease::id));
        final Map<Long, Lease> leaseOf = new HashMap<>();
        Long signal;
        long signalSince;
        final Deque<Blocked> blocked = new ArrayDeque<>();
        long nextId;

        // what the checks follow
        final List<Proc> procs = new ArrayList<>();
        final Map<Long, Integer> signalsOnTheWay = new HashMap<>();
        final Map<Long, Integer> pushesOnTheWay = new HashMap<>();
        /** Next events that watched claims woke no one for, their replies on the way to their objects. */
        final Map<Long, Integer> keptOnTheWay = new HashMap<>();

        int active; // receives entered and not left, in live processes
        long activeSince;
        long lastLoss = Long.MIN_VALUE / 2;
        long earliestId = -1;
        long earliestSince;
        long uncoveredSince = -1;
        long worstLateness;
        long claims;
        long taken;
        long handOns;
        long blocks;
        long pops;

        Sim(long seed) {
            this.rnd = new Random(seed);
            this.blockMs = List.of(200L, 1000L, 3000L).get(rnd.nextInt(3));
            this.leaseMs = 1000 + rnd.nextInt(4000);
            this.horizonMs = Math.min(leaseMs, 10 * blockMs);
            this.rttNanos = 100_000 + (long) rnd.nextInt(5_000_000);
            this.batch = List.of(1, 1, 3, 10).get(rnd.nextInt(4));
            this.endNanos = (20 + rnd.nextInt(40)) * 1000 * MS;
            this.bound = bound(rttNanos);
        }

        void run() {
            int procCount = 2 + rnd.nextInt(3);
            for (int i = 0; i < procCount; i++) {
                startProc();
            }
            scheduleProducer();
            scheduleTurmoil();
            while (!events.isEmpty() && now < endNanos) {
                Ev e = events.poll();
                now = e.at;
                e.run.run();
                stirSleepers();
                check(e.lossy);
            }
        }

        // ---- time and events

        record Ev(long at, long seq, Runnable run, boolean lossy) {}

        void at(long when, Runnable r) {
            events.add(new Ev(Math.max(when, now), seq++, r, false));
        }

        void lossyAt(long when, Runnable r) {
            events.add(new Ev(Math.max(when, now), seq++, r, true));
        }

        long serverMs() {
            return Math.floorDiv(now, MS);
        }

        void log(String s) {
            trace.add(String.format("%10.3f ms %s", now / (double) MS, s));
            if (trace.size() > 60) {
                trace.remove(0);
            }
        }

        long half() {
            return (long) (rnd.nextDouble() * rttNanos / 2);
        }

        // ---- the server's storage, as the delay queue's scripts keep it

        record Msg(long id, long due, long seq, long since) {}

        record Lease(long id, long expiry, long token) {}

        record Blocked(Consumer c, long token) {}

        void wake(long at) {
            if (signal == null) {
                while (!blocked.isEmpty()) {
                    Blocked b = blocked.poll();
                    if (b.c.blockToken == b.token) {
                        b.c.blockToken = -1;
                        deliverSignal(b.c, at);
                        return;
                    }
                }
                signal = at;
                signalSince = now;
            } else if (signal > at) {
                signal = at;
                signalSince = now;
            }
        }

        void store(long dueMs) {
            long c = serverMs();
            long due = Math.max(dueMs, c);
            boolean first = ready.isEmpty() || ready.first().due > due;
            long id = nextId++;
            ready.add(new Msg(id, due, seq++, now));
            log("send #" + id + " due " + due + (due <= c || first ? ", wakes" : ""));
            if (due <= c || first) {
                wake(due);
            }
        }

        /**
         * claim.lua: reap, take up to n in due order, lease, wake another for the rest, unless
         * {@code watched} and the next event is still to come.
         */
        long[] claim(int n, boolean watched) {
            long c = serverMs();
            claims++;
            while (!leases.isEmpty() && leases.first().expiry <= c) {
                Lease l = leases.pollFirst();
                leaseOf.remove(l.id);
                ready.add(new Msg(l.id, c, seq++, now));
            }
            List<Long> took = new ArrayList<>();
            while (took.size() < n && !ready.isEmpty() && ready.first().due <= c) {
                Msg m = ready.pollFirst();
                took.add(m.id);
                long lateness = now - Math.max(m.due * MS, m.since);
                if (eligible(Math.max(m.due * MS, m.since))) {
                    worstLateness = Math.max(worstLateness, lateness);
                }
                Lease l = new Lease(m.id, c + leaseMs, seq++);
                leases.add(l);
                leaseOf.put(m.id, l);
                taken++;
            }
            long next = nextEvent();
            if (!took.isEmpty() && next >= 0) {
                if (watched && next > c) {
                    keptOnTheWay.merge(next, 1, Integer::sum);
                } else {
                    wake(next);
                }
            }
            long[] out = new long[3 + 2 * took.size()];
            out[0] = c;
            out[1] = next;
            out[2] = took.size();
            for (int i = 0; i < took.size(); i++) {
                out[3 + 2 * i] = took.get(i);
                out[4 + 2 * i] = leaseOf.get(took.get(i)).token;
            }
            return out;
        }

        long nextEvent() {
            long next = ready.isEmpty() ? -1 : ready.first().due;
            if (!leases.isEmpty() && (next < 0 || leases.first().expiry < next)) {
                next = leases.first().expiry;
            }
            return next;
        }

        void settle(long id, long token) {
            Lease l = leaseOf.get(id);
            if (l == null || l.token != token) {
                return;
            }
            int what = rnd.nextInt(10);
            if (what == 0) {
                return; // abandoned: the lease runs out
            }
            leases.remove(l);
            leaseOf.remove(id);
            if (what == 1) { // retried after a delay
                long c = serverMs();
                long due = c + rnd.nextInt(2000);
                boolean first = ready.isEmpty() || ready.first().due > due;
                ready.add(new Msg(id, due, seq++, now));
                if (first) {
                    wake(due);
                }
            }
        }

        // ---- producers and turmoil

        void scheduleProducer() {
            at(now + (long) (rnd.nextExponential() * 150 * MS), () -> {
                long c = serverMs();
                int kind = rnd.nextInt(20);
                long due = kind == 0
                        ? c + 10_000 + rnd.nextInt(30_000) // beyond the horizon
                        : kind == 1
                                ? c - rnd.nextInt(200) // in the past: now
                                : c + rnd.nextInt(5_000);
                store(due);
                if (rnd.nextInt(30) == 0 && !ready.isEmpty()) {
                    Msg m = ready.pollLast(); // cancelled
                    log("cancel #" + m.id);
                }
                scheduleProducer();
            });
        }

        void scheduleTurmoil() {
            at(now + (2 + rnd.nextInt(8)) * 1000 * MS, () -> {
                List<Proc> live =
                        procs.stream().filter(p -> p.alive && !p.closing).toList();
                if (!live.isEmpty()) {
                    Proc p = live.get(rnd.nextInt(live.size()));
                    if (rnd.nextInt(4) == 0) {
                        crash(p);
                    } else {
                        log("close " + p);
                        p.closing = true; // a rolling deploy: its consumers leave, a new process starts
                    }
                    at(now + rnd.nextInt(2000) * MS, this::startProc);
                }
                scheduleTurmoil();
            });
        }

        void crash(Proc p) {
            log("crash " + p);
            p.alive = false;
            lastLoss = now;
            for (Consumer c : p.consumers) {
                if (c.receive != null) {
                    active--;
                    c.receive = null;
                }
            }
            if (active == 0) {
                activeSince = Long.MAX_VALUE;
            }
            // the server notices the dead connections a little later: a wake-up served meanwhile is lost
            lossyAt(now + rnd.nextInt(50) * MS, () -> {
                for (Consumer c : p.consumers) {
                    c.blockToken = -1;
                }
            });
        }

        void startProc() {
            Proc p = new Proc(procs.size());
            procs.add(p);
            int consumers = 1 + rnd.nextInt(4);
            for (int i = 0; i < consumers; i++) {
                Consumer c = new Consumer(p, i, rnd.nextInt(3));
                p.consumers.add(c);
                at(now + rnd.nextInt(100) * MS, c::enter);
            }
        }

        final class Proc {
            final int number;
            final long offset = rnd.nextLong() / 4; // its own nanoTime origin
            final WakeUps wakeUps;
            final List<Consumer> consumers = new ArrayList<>();
            boolean alive = true;
            boolean closing;

            Proc(int number) {
                this.number = number;
                this.wakeUps = new WakeUps(() -> now + offset, blockMs, horizonMs, TICK_MS, MIN_BLOCK_MS);
            }

            @Override
            public String toString() {
                return "p" + number;
            }
        }

        final class Consumer {
            final Proc proc;
            final int number;
            final int style; // 0: a worker polling 1 s; 1: short polls with pauses; 2: take
            WakeUps.Receive receive;
            long blockToken = -1;
            long sleepToken = -1;
            long deadlineAt;

            Consumer(Proc proc, int number, int style) {
                this.proc = proc;
                this.number = number;
                this.style = style;
            }

            @Override
            public String toString() {
                return proc + "c" + number;
            }

            void enter() {
                if (!proc.alive || proc.closing) {
                    return;
                }
                long timeout = style == 0 ? 1000 * MS : style == 1 ? (5 + rnd.nextInt(800)) * MS : 3_600_000 * MS;
                receive = proc.wakeUps.begin(batch, timeout);
                deadlineAt = now + timeout;
                if (active++ == 0) {
                    activeSince = now;
                }
                step();
            }

            void step() {
                if (!proc.alive || receive == null) {
                    return;
                }
                if (proc.closing) {
                    leave(null);
                    return;
                }
                WakeUps.Receive r = receive;
                Step s = r.next();
                switch (s.kind()) {
                    case CLAIM ->
                        request(
                                () -> {
                                    long[] got = claim(batch, s.watched());
                                    log(this + " claim" + (s.watched() ? " (watched)" : "") + ": now " + got[0]
                                            + " next " + got[1] + " took " + got[2]);
                                    return got;
                                },
                                got -> {
                                    r.claimed(got[0], got[1], got[2] > 0);
                                    if (s.watched() && got[2] > 0 && got[1] > got[0]) {
                                        keptOnTheWay.merge(got[1], -1, Integer::sum);
                                    }
                                    if (got[2] > 0) {
                                        leave(got);
                                    } else {
                                        step();
                                    }
                                },
                                got -> {
                                    if (s.watched() && got[2] > 0 && got[1] > got[0]) {
                                        lastLoss = now; // a next event no one else was woken for
                                        keptOnTheWay.merge(got[1], -1, Integer::sum);
                                    }
                                });
                    case BLOCK -> {
                        for (Consumer other : proc.consumers) {
                            if (other.blockToken >= 0) {
                                throw new AssertionError(
                                        this + " blocks on the list while " + other + " of its object does (rule 9)");
                            }
                        }
                        long token = seq++;
                        blockToken = token;
                        blocks++;
                        requestBlock(s.millis(), token);
                    }
                    case SLEEP -> {
                        // in this process: ends early if another receive of the object stirs it
                        long token = seq++;
                        sleepToken = token;
                        at(now + s.millis() * MS, () -> wakeFromSleep(token));
                    }
                    case POP ->
                        request(
                                () -> {
                                    pops++;
                                    long sig = signal == null ? WakeUps.NONE : signal;
                                    signal = null;
                                    log(this + " pop " + sig);
                                    if (sig != WakeUps.NONE) {
                                        signalsOnTheWay.merge(sig, 1, Integer::sum);
                                    }
                                    return new long[] {sig};
                                },
                                got -> {
                                    arrived(got[0]);
                                    r.woke(got[0]);
                                    step();
                                },
                                got -> {
                                    if (got[0] != WakeUps.NONE) {
                                        lastLoss = now; // a wake-up the dead process took off the list
                                        arrived(got[0]);
                                    }
                                });
                    case RETURN -> {
                        // rule 8, for the last receive of its object, with no one blocking on the list
                        if (!proc.wakeUps.blocking()
                                && proc.wakeUps.receives() == 1
                                && signal != null
                                && signal <= serverMs()
                                && signalSince + rttNanos < deadlineAt) {
                            throw new AssertionError(this + " returned nothing at its deadline, though a wake-up for "
                                    + signal + " ms, due, was on the list before then");
                        }
                        leave(null);
                    }
                }
            }

            void wakeFromSleep(long token) {
                if (sleepToken == token) {
                    sleepToken = -1;
                    step();
                }
            }

            /** BLPOP: a wake-up at once if one waits, else blocked until served or timed out. */
            void requestBlock(long millis, long token) {
                at(now + half(), () -> {
                    if (blockToken != token) {
                        return; // its process died before the request reached the server
                    }
                    if (signal != null) {
                        long sig = signal;
                        signal = null;
                        blockToken = -1;
                        log(this + " block: popped " + sig);
                        deliverSignal(this, sig);
                        return;
                    }
                    blocked.add(new Blocked(this, token));
                    long fires = now + millis * MS + (long) (rnd.nextDouble() * TICK_MS * MS);
                    at(fires, () -> {
                        if (blockToken == token) {
                            blockToken = -1;
                            reply(
                                    new long[] {WakeUps.NONE},
                                    got -> {
                                        receive.woke(WakeUps.NONE);
                                        step();
                                    },
                                    got -> {});
                        }
                    });
                });
            }

            /** Ends the receive; {@code got} is a claim's reply that took messages, or null. */
            void leave(long[] got) {
                WakeUps.Receive r = receive;
                receive = null;
                if (--active == 0) {
                    activeSince = Long.MAX_VALUE;
                }
                long handOn = r.leave();
                if (handOn != WakeUps.NONE) {
                    log(this + " hands on " + handOn);
                    handOns++;
                    pushesOnTheWay.merge(handOn, 1, Integer::sum);
                    at(now + half(), () -> {
                        pushesOnTheWay.merge(handOn, -1, Integer::sum);
                        wake(handOn);
                    });
                }
                if (got == null) {
                    at(now + (style == 1 ? rnd.nextInt(1500) * MS : 0), this::enter);
                    return;
                }
                long handling = rnd.nextInt(60) * MS;
                at(now + handling, () -> {
                    for (int i = 3; i < got.length; i += 2) {
                        settle(got[i], got[i + 1]);
                    }
                });
                at(now + handling, this::enter);
            }

            /**
             * A request run on the server after half a round trip, its reply half a round trip later,
             * to {@code onReply}, or to {@code onLost} if the process died meanwhile.
             */
            void request(
                    java.util.function.Supplier<long[]> onServer,
                    java.util.function.Consumer<long[]> onReply,
                    java.util.function.Consumer<long[]> onLost) {
                Proc p = proc;
                at(now + half(), () -> {
                    if (!p.alive && rnd.nextBoolean()) {
                        return; // lost with the process's connection
                    }
                    long[] got = onServer.get();
                    reply(got, onReply, onLost);
                });
            }

            void reply(
                    long[] got,
                    java.util.function.Consumer<long[]> onReply,
                    java.util.function.Consumer<long[]> onLost) {
                Proc p = proc;
                at(now + half(), () -> {
                    if (p.alive) {
                        onReply.accept(got);
                    } else {
                        onLost.accept(got);
                    }
                });
            }
        }

        void deliverSignal(Consumer c, long sig) {
            signalsOnTheWay.merge(sig, 1, Integer::sum);
            log("wake " + sig + " serves " + c);
            c.reply(
                    new long[] {sig},
                    got -> {
                        arrived(sig);
                        c.receive.woke(sig);
                        log(c + " woke by " + sig + ": duty " + c.proc.wakeUps.duty());
                        c.step();
                    },
                    got -> {
                        lastLoss = now; // a wake-up the dead process took off the list
                        arrived(sig);
                    });
        }

        void arrived(long sig) {
            if (sig != WakeUps.NONE) {
                signalsOnTheWay.merge(sig, -1, Integer::sum);
            }
        }

        /** Receives waiting in their process that another receive stirred look again, a little later. */
        void stirSleepers() {
            for (Proc p : procs) {
                if (!p.alive) {
                    continue;
                }
                for (Consumer c : p.consumers) {
                    if (c.sleepToken >= 0 && c.receive != null && c.receive.stirred()) {
                        long token = c.sleepToken;
                        c.sleepToken = -2; // stirred: not again until it sleeps anew
                        at(now + 1_000 + rnd.nextInt(50_000), () -> {
                            if (c.sleepToken == -2) {
                                c.sleepToken = token;
                                c.wakeFromSleep(token);
                            }
                        });
                    }
                }
            }
        }

        // ---- the checks

        boolean eligible(long since) {
            return active > 0 && activeSince <= since && now - lastLoss > (horizonMs + 1000) * MS;
        }

        void check(boolean lossy) {
            long e = nextEvent();
            if (e < 0) {
                uncoveredSince = -1;
                earliestId = -1;
                return;
            }
            boolean covered = signal != null && signal <= e;
            for (Proc p : procs) {
                long d = p.wakeUps.duty();
                covered |= p.alive && d != WakeUps.NONE && d <= e;
            }
            for (Map.Entry<Long, Integer> s : signalsOnTheWay.entrySet()) {
                covered |= s.getValue() > 0 && s.getKey() <= e;
            }
            for (Map.Entry<Long, Integer> s : pushesOnTheWay.entrySet()) {
                covered |= s.getValue() > 0 && s.getKey() <= e;
            }
            for (Map.Entry<Long, Integer> s : keptOnTheWay.entrySet()) {
                covered |= s.getValue() > 0 && s.getKey() <= e;
            }
            if (covered) {
                uncoveredSince = -1;
            } else if (uncoveredSince < 0) {
                uncoveredSince = now;
                log("earliest event " + e + " uncovered");
                if (!lossy && now - lastLoss > (horizonMs + 1000) * MS) {
                    throw new AssertionError(
                            "the earliest event, at " + e + " ms, is covered by no wake-up and no duty");
                }
            } else if (active > 0
                    && activeSince <= uncoveredSince
                    && now - uncoveredSince > (horizonMs + bound / MS + 1000) * MS) {
                throw new AssertionError("the earliest event, at " + e + " ms, was left uncovered for "
                        + (now - uncoveredSince) / MS + " ms while consumers waited (horizon " + horizonMs + " ms)");
            }
            // the bound: measured from when the earliest became claimable, earliest, and waited for
            long id = ready.isEmpty() || !leases.isEmpty() && leases.first().expiry < ready.first().due
                    ? -2
                    : ready.first().id;
            if (id != earliestId) {
                earliestId = id;
                earliestSince = now;
            }
            long claimable = Math.max(Math.max(e * MS, earliestSince), activeSince);
            if (id >= 0 && e * MS <= now && eligible(claimable) && now - claimable > bound) {
                throw new AssertionError("message #" + id + ", due at " + e + " ms, claimable and earliest for "
                        + (now - claimable) / (double) MS + " ms while consumers waited (bound "
                        + bound / (double) MS + " ms)");
            }
        }
    }

    /**
     * The lateness bound the protocol promises: a timer tick (the server may end a block that late,
     * and the watcher sleeps the last tick here), the shortest block (waits shorter than that are
     * slept here), and three round trips (a wake-up reaching a blocked consumer, its claim, and a
     * hand-on of a consumer that leaves).
     */
    static long bound(long rttNanos) {
        return (TICK_MS + MIN_BLOCK_MS) * MS + 3 * rttNanos;
    }
}
