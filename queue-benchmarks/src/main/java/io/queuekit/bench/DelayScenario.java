package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Delay queues: lateness (received minus due), deliveries before the due time, drain rate, and the
 * Redis server's CPU time per message from INFO before and after the measured run (loading,
 * waiting and draining), less what the idle server uses in that time. For a backlog, how that
 * splits between storing it and draining it is given with the commands.
 */
final class DelayScenario extends Scenario {

    enum Mode {
        /** Messages due at random over a window, sent as fast as one producer can. */
        LOAD,
        /** Messages all due before any consumer starts; measures how fast consumers drain them. */
        BACKLOG,
        /** One message per interval, each due a random 50-2000 ms later. */
        LIGHT,
        /**
         * Messages scheduled one per call, due at once, by one producer (its time is measured),
         * then drained by consumers started after; with {@code preload} messages due in an hour
         * waiting throughout, stored before the measuring starts.
         */
        SCHEDULE_THEN_DRAIN
    }

    private static final int CONSUMERS = 10;
    private static final long IDLE_MILLIS = 10_000;

    private final Mode mode;
    private final int baseCount;
    private final int batch;
    private final long windowMillis;
    private final int preload;

    /** @param batch most messages a consumer fetches per round trip, where the implementation can */
    DelayScenario(String name, String summary, List<String> impls, Mode mode, int baseCount, int batch) {
        this(name, summary, impls, mode, baseCount, batch, 3_000);
    }

    /** @param windowMillis in {@link Mode#LOAD}, the span over which messages fall due after sending */
    DelayScenario(
            String name, String summary, List<String> impls, Mode mode, int baseCount, int batch, long windowMillis) {
        this(name, summary, impls, mode, baseCount, batch, windowMillis, 0);
    }

    /** @param preload in {@link Mode#SCHEDULE_THEN_DRAIN}, messages waiting (due in an hour) throughout */
    DelayScenario(
            String name,
            String summary,
            List<String> impls,
            Mode mode,
            int baseCount,
            int batch,
            long windowMillis,
            int preload) {
        super(name, summary, impls);
        this.mode = mode;
        this.baseCount = baseCount;
        this.batch = batch;
        this.windowMillis = windowMillis;
        this.preload = preload;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(baseCount, 20);
        if (ctx.config().warmup()) {
            once(Mode.LOAD, impl, ctx, Math.min(n, 2_000), 300);
        }
        return once(mode, impl, ctx, n, windowMillis);
    }

    private Result once(Mode m, String impl, Context ctx, int n, long windowMillis) throws InterruptedException {
        BenchConfig cfg = ctx.config();
        Random random = new Random(42);
        List<String> bodies = Body.all(n);
        Tracker t = new Tracker(n, 1, true);
        String note = "";
        long start;
        double cpu;
        RedisProbe.Costs costs;
        double producerSeconds = Double.NaN;
        try (DelayUnderTest q = Impls.delay(impl, ctx.uri(), ctx.freshName(name()))) {
            int waiting = m == Mode.SCHEDULE_THEN_DRAIN ? ctx.config().count(preload, 0) : 0;
            if (waiting > 0) {
                List<String> later = new ArrayList<>(waiting);
                for (int i = 0; i < waiting; i++) {
                    later.add(Body.of(n + i)); // never due in the run, so never received
                }
                q.load(later, System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1));
            }
            RedisProbe.Snapshot before = ctx.probe().commandStats();
            long cpuBefore = ctx.probe().cpuMicros();
            long began = System.nanoTime();
            long deadline = ctx.deadlineNanos();
            double storing = Double.NaN;
            int sent = 0;
            switch (m) {
                case LOAD -> {
                    long window = cfg.millis(windowMillis);
                    q.startConsumers(CONSUMERS, batch, t::received);
                    start = System.nanoTime();
                    for (; sent < n; sent++) {
                        long due = System.currentTimeMillis() + (long) (random.nextDouble() * window);
                        t.due(sent, due * 1000);
                        q.schedule(bodies.get(sent), due);
                        if ((sent & 255) == 0 && System.nanoTime() - deadline > 0) {
                            break;
                        }
                    }
                    producerSeconds = (System.nanoTime() - start) / 1e9;
                }
                case BACKLOG -> {
                    long due = System.currentTimeMillis();
                    for (int i = 0; i < n; i++) {
                        t.due(i, due * 1000);
                    }
                    q.load(bodies, due);
                    sent = n;
                    while (System.currentTimeMillis() <= due) {
                        Thread.sleep(1);
                    }
                    start = System.nanoTime();
                    storing = ctx.cpuSince(cpuBefore, start - began);
                    q.startConsumers(CONSUMERS, batch, t::received);
                }
                case SCHEDULE_THEN_DRAIN -> {
                    long began2 = System.nanoTime();
                    for (; sent < n; sent++) {
                        long due = System.currentTimeMillis();
                        t.due(sent, due * 1000);
                        q.schedule(bodies.get(sent), due);
                    }
                    producerSeconds = (System.nanoTime() - began2) / 1e9;
                    start = System.nanoTime();
                    q.startConsumers(CONSUMERS, batch, t::received);
                }
                default -> {
                    long interval = TimeUnit.MILLISECONDS.toNanos(cfg.millis(20));
                    long minDelay = cfg.millis(50);
                    long spread = cfg.millis(2_000) - minDelay;
                    q.startConsumers(CONSUMERS, batch, t::received);
                    start = System.nanoTime();
                    for (; sent < n && System.nanoTime() - deadline < 0; sent++) {
                        long wait = start + sent * interval - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        long due = System.currentTimeMillis() + minDelay + (long) (random.nextDouble() * spread);
                        t.due(sent, due * 1000);
                        q.schedule(bodies.get(sent), due);
                    }
                }
            }
            if (sent < n) {
                note = "time limit reached after sending " + sent + " of " + n;
            }
            boolean complete = t.await(deadline, IDLE_MILLIS);
            if (note.isEmpty()) {
                note = incomplete(t, complete, deadline);
            }
            q.stopConsumers();
            cpu = ctx.cpuSince(cpuBefore, System.nanoTime() - began);
            costs = RedisProbe.costs(before, ctx.probe().commandStats(), n, 6);
            if (!Double.isNaN(storing)) {
                costs = costs.prefixed(String.format(
                        Locale.ROOT,
                        "storing %.2f us/msg and draining %.2f of Redis CPU; ",
                        storing / n,
                        (cpu - storing) / n));
            }
        } finally {
            ctx.probe().flushAll();
        }
        Result r = result(impl, n, t, 1, start, OptionalLong.of(t.early()), OptionalDouble.of(cpu / n), note)
                .withCosts(costs);
        return Double.isNaN(producerSeconds) ? r : r.withProducerSeconds(producerSeconds);
    }
}
