package io.queuekit.internal;

import io.queuekit.DelayQueue;
import io.queuekit.MissedTicks;
import io.queuekit.QueueClosedException;
import io.queuekit.Schedule;
import io.queuekit.ScheduleInfo;
import io.queuekit.Scheduler;
import io.queuekit.Trigger;
import io.queuekit.internal.ScheduleStore.Entry;
import io.queuekit.internal.ScheduleStore.Snapshot;
import io.queuekit.internal.ScheduleStore.Tick;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Scheduler} of every transport: reads the schedules from a {@link ScheduleStore},
 * works out which ticks to store, and stores them with the store's atomic {@link
 * ScheduleStore#fire}, which refuses if any other scheduler moved the schedule since the read.
 * The protocol and its invariant ("each tick is stored at most once; a tick that falls due while
 * a scheduler runs is stored") are in {@code docs/schedules.md}, "Design notes".
 *
 * <p>Easy to get wrong: which ticks count as missed. Ticks before this scheduler first read the
 * store fell due while no scheduler stored them, and follow the schedule's {@link MissedTicks};
 * ticks after it are stored however late this scheduler is, since it was running.
 */
public final class ScheduleRunner<T> implements Scheduler<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ScheduleRunner.class);
    /** How often a running scheduler reads the store with nothing due: what other processes changed. */
    static final long REFRESH_MILLIS = 5_000;
    /** Most ticks one fire stores, so that no script runs long. */
    static final int MAX_TICKS_PER_FIRE = 1_000;
    /** Most missed ticks one step walks through to find the latest. */
    static final int MAX_MISSED_STEPS = 100_000;

    private static final long RETRY_MILLIS = 1_000;
    /** The furthest ahead a tick is stored: a day less than the queue's furthest delay. */
    private static final long MAX_AHEAD_MILLIS =
            DelayQueue.MAX_DELAY.minusDays(1).toMillis();

    private final String label;
    private final String threadName;
    private final ScheduleStore<T> store;
    private final Runnable checkOpen;
    private final boolean manual;
    private final RateLimitedLog failures = new RateLimitedLog(LOG, Duration.ofMinutes(1));
    private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

    private final Object lock = new Object();
    // guarded by lock
    private boolean started;
    private boolean closed;
    private boolean stepAsked;
    private Thread thread;

    private final Object stepLock = new Object();
    // guarded by stepLock
    private long startedAt = ScheduleStore.NONE;

    /**
     * A scheduler of {@code store}, not yet started.
     *
     * @param label the queue's label, for logs and exceptions
     * @param threadName the name of its thread
     * @param checkOpen throws {@link QueueClosedException} once the queue is closed
     * @param manual steps run only when {@link #runDue()} is called (a manual clock moved), on no
     *     thread of its own
     */
    public ScheduleRunner(String label, String threadName, ScheduleStore<T> store, Runnable checkOpen, boolean manual) {
        this.label = Objects.requireNonNull(label, "label");
        this.threadName = Objects.requireNonNull(threadName, "threadName");
        this.store = Objects.requireNonNull(store, "store");
        this.checkOpen = Objects.requireNonNull(checkOpen, "checkOpen");
        this.manual = manual;
    }

    @Override
    public ScheduleInfo<T> put(Schedule<T> schedule) {
        Objects.requireNonNull(schedule, "schedule");
        checkOpen();
        store.put(schedule);
        start();
        return get(schedule.name()).orElseThrow(() -> new QueueClosedException(label));
    }

    @Override
    public boolean remove(String name) {
        Schedule.checkName(name);
        checkOpen();
        return store.remove(name);
    }

    @Override
    public Optional<ScheduleInfo<T>> get(String name) {
        Schedule.checkName(name);
        checkOpen();
        Snapshot snap = store.read();
        for (Entry e : snap.entries()) {
            if (e.name().equals(name)) {
                return Optional.ofNullable(info(e, snap.nowMillis()));
            }
        }
        return Optional.empty();
    }

    @Override
    public List<ScheduleInfo<T>> list() {
        checkOpen();
        Snapshot snap = store.read();
        List<ScheduleInfo<T>> out = new ArrayList<>();
        for (Entry e : snap.entries()) {
            ScheduleInfo<T> i = info(e, snap.nowMillis());
            if (i != null) {
                out.add(i);
            }
        }
        return out;
    }

    private ScheduleInfo<T> info(Entry e, long now) {
        Schedule<T> s = store.load(e.name());
        if (s == null) { // removed between the two reads
            return null;
        }
        long lastRun = e.last() != ScheduleStore.NONE && e.last() <= now ? e.last() : e.previous();
        long nextRun = e.last() != ScheduleStore.NONE && e.last() > now
                ? e.last()
                : next(s.trigger(), Math.max(e.base(), now));
        return new ScheduleInfo<>(s, instant(lastRun <= now ? lastRun : ScheduleStore.NONE), instant(nextRun));
    }

    /** {@inheritDoc} Stores what is due before it returns. */
    @Override
    public void start() {
        checkOpen();
        synchronized (lock) {
            if (!started) {
                started = true;
                if (!manual) {
                    thread = new Thread(this::loop, threadName);
                    thread.setDaemon(true);
                    thread.start();
                }
            }
        }
        runDue();
    }

    @Override
    public void close() {
        Thread t;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            t = thread;
            lock.notifyAll();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void checkOpen() {
        synchronized (lock) {
            if (closed) {
                throw new QueueClosedException(label + " scheduler");
            }
        }
        checkOpen.run();
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Stores what is due now, stepping until nothing more is due at once: what a manual clock's
     * move runs, and what put runs before it returns. Does nothing unless started.
     */
    public void runDue() {
        synchronized (lock) {
            if (!started || closed) {
                return;
            }
        }
        for (int i = 0; i < 100; i++) {
            long[] r = step();
            if (r[1] > r[0]) {
                return;
            }
        }
    }

    private void loop() {
        int atOnce = 0;
        while (!isClosed()) {
            long wait;
            try {
                long[] r = step();
                wait = Math.max(0, Math.min(REFRESH_MILLIS, r[1] - r[0]));
                failures.recovered("{}: schedules are read and stored again", label);
            } catch (QueueClosedException e) {
                return;
            } catch (RuntimeException e) {
                failures.failed(label + ": schedules could not be read or stored; trying again", e);
                wait = RETRY_MILLIS;
            }
            // a fire lost to another scheduler reads again at once; a few in a row, then a pause
            atOnce = wait == 0 ? atOnce + 1 : 0;
            if (atOnce > 10) {
                wait = 50;
                atOnce = 0;
            }
            synchronized (lock) {
                if (wait > 0 && !stepAsked && !closed) {
                    try {
                        lock.wait(wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                stepAsked = false;
            }
        }
    }

    /** One read and the fires it calls for; returns the store's now and when to step again. */
    private long[] step() {
        synchronized (stepLock) {
            Snapshot snap = store.read();
            long now = snap.nowMillis();
            if (startedAt == ScheduleStore.NONE) {
                startedAt = now;
            }
            long wake = now + REFRESH_MILLIS;
            for (Entry e : snap.entries()) {
                if (e.trigger() == null) {
                    if (unreadable.add(e.name())) {
                        LOG.warn("{}: schedule {} has a trigger this version cannot read; left alone", label, e.name());
                    }
                    continue;
                }
                if (e.last() != ScheduleStore.NONE && e.last() > now) {
                    wake = Math.min(wake, e.last());
                    continue;
                }
                try {
                    Plan p = plan(e, now);
                    if (p == null) {
                        continue;
                    }
                    if (!store.fire(e.name(), e.version(), e.base(), p.ticks, p.newBase)) {
                        wake = now; // another scheduler or a put moved it: read again
                    } else if (p.more) {
                        wake = now;
                    } else if (!p.ticks.isEmpty() && p.newBase > now) {
                        wake = Math.min(wake, p.newBase);
                    }
                } catch (QueueClosedException ex) {
                    throw ex;
                } catch (RuntimeException ex) { // one schedule's failure stops none of the others
                    failures.failed(label + ": could not store the ticks of schedule " + e.name(), ex);
                }
            }
            return new long[] {now, wake};
        }
    }

    /** What to fire for {@code e}, whose last tick stored is due: null if nothing. */
    private Plan plan(Entry e, long now) {
        Trigger trigger = e.trigger();
        long t = next(trigger, e.base());
        long missed = ScheduleStore.NONE;
        long newBase = e.base();
        if (t != ScheduleStore.NONE && t < startedAt && t <= now) {
            if (e.missed() == MissedTicks.SKIP) {
                newBase = Math.min(startedAt, now + 1) - 1;
                t = next(trigger, newBase);
            } else {
                for (int i = 0; t != ScheduleStore.NONE && t < startedAt && t <= now; i++) {
                    if (i == MAX_MISSED_STEPS) { // move past this stretch storing nothing; the next step goes on
                        return new Plan(List.of(), missed, true);
                    }
                    missed = t;
                    t = next(trigger, t);
                }
            }
        }
        List<Tick> ticks = new ArrayList<>();
        if (missed != ScheduleStore.NONE) {
            ticks.add(tick(e.name(), missed));
        }
        while (t != ScheduleStore.NONE && t <= now && ticks.size() < MAX_TICKS_PER_FIRE) {
            ticks.add(tick(e.name(), t));
            t = next(trigger, t);
        }
        boolean more = false;
        if (t != ScheduleStore.NONE && ticks.size() < MAX_TICKS_PER_FIRE) {
            if (t - now <= MAX_AHEAD_MILLIS) {
                ticks.add(tick(e.name(), t)); // the next tick to come, stored ahead
            } // else stored once it comes within the queue's furthest delay
        } else if (t != ScheduleStore.NONE) {
            more = true;
        }
        if (ticks.isEmpty()) {
            return newBase == e.base() ? null : new Plan(ticks, newBase, false);
        }
        return new Plan(ticks, ticks.get(ticks.size() - 1).dueMillis(), more);
    }

    private record Plan(List<Tick> ticks, long newBase, boolean more) {}

    /** The id of a schedule's message for one tick: {@code <name>@<tick>}. */
    public static String tickId(String name, long tickMillis) {
        return name + "@" + Instant.ofEpochMilli(tickMillis);
    }

    private static Tick tick(String name, long millis) {
        return new Tick(tickId(name, millis), millis);
    }

    private static long next(Trigger trigger, long afterMillis) {
        Instant n = trigger.next(Instant.ofEpochMilli(afterMillis));
        return n == null ? ScheduleStore.NONE : n.toEpochMilli();
    }

    private static Instant instant(long millis) {
        return millis == ScheduleStore.NONE ? null : Instant.ofEpochMilli(millis);
    }

    @Override
    public String toString() {
        return label + " scheduler";
    }
}
