package io.queuekit.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One producer and several consumers on a work queue: every message sent once, received once.
 * With a batch size above one the producer sends that many per call and consumers fetch up to as
 * many per round trip.
 */
class WorkQueueScenario extends Scenario {
    private static final long IDLE_MILLIS = 10_000;

    private final int baseCount;
    private final int consumers;
    private final int batch;

    WorkQueueScenario(String name, String summary, List<String> impls, int baseCount, int consumers, int batch) {
        super(name, summary, impls);
        this.baseCount = baseCount;
        this.consumers = consumers;
        this.batch = batch;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(baseCount, 20);
        if (ctx.config().warmup()) {
            once(impl, ctx, Math.min(n, Math.max(2_000, n / 10)));
        }
        return once(impl, ctx, n);
    }

    /** Where a run's queue lives: by default the benchmark's one server. */
    Deployment deploy(String impl, Context ctx) throws Exception {
        return Deployment.single(impl, ctx, ctx.freshName(name()));
    }

    private Result once(String impl, Context ctx, int n) throws Exception {
        List<String> bodies = Body.all(n);
        Tracker t = new Tracker(n, 1, false);
        String note = "";
        RedisProbe.Costs costs;
        long start;
        double[] cpu;
        try (Deployment where = deploy(impl, ctx);
                QueueUnderTest q = where.queue()) {
            RedisProbe.Snapshot before = where.commandStats();
            long[] cpuBefore = where.cpuMicros();
            q.startConsumers(consumers, batch, t::received);
            start = System.nanoTime();
            long deadline = ctx.deadlineNanos();
            int sent = 0;
            while (sent < n) {
                if (batch == 1) {
                    t.sent(sent);
                    q.send(bodies.get(sent));
                    sent++;
                } else {
                    int end = Math.min(n, sent + batch);
                    for (int i = sent; i < end; i++) {
                        t.sent(i);
                    }
                    q.sendAll(bodies.subList(sent, end));
                    sent = end;
                }
                if ((batch > 1 || (sent & 1023) == 0) && System.nanoTime() - deadline > 0) {
                    note = "time limit reached after sending " + sent + " of " + n;
                    break;
                }
            }
            boolean complete = t.await(deadline, IDLE_MILLIS);
            if (note.isEmpty()) {
                note = incomplete(t, complete, deadline);
            }
            q.stopConsumers();
            cpu = where.cpuSince(cpuBefore, System.nanoTime() - start);
            costs = RedisProbe.costs(before, where.commandStats(), n, 6);
        }
        double total = 0;
        for (double c : cpu) {
            total += c;
        }
        Result r = result(
                impl,
                n,
                t,
                1,
                start,
                OptionalLong.empty(),
                Impls.inMemory(impl) ? OptionalDouble.empty() : OptionalDouble.of(total / n),
                note);
        r = Impls.inMemory(impl) ? r.withCommands(costs.commands()) : r.withCosts(costs);
        return cpu.length > 1 ? r.withServerShares(shares(cpu, total)) : r;
    }

    private static double[] shares(double[] cpu, double total) {
        double[] out = new double[cpu.length];
        for (int i = 0; i < cpu.length; i++) {
            out[i] = total == 0 ? 0 : cpu[i] / total;
        }
        return out;
    }
}
