package io.queuekit.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One publisher and several groups (or subscribers) of one consumer each on one topic: every group
 * should get every message. Its costs are per delivered message, a (message, group) pair received:
 * what fan-out costs Redis for each copy it hands out. A run that loses deliveries reports them as
 * lost, and its costs are still divided by what it delivered.
 */
final class FanOutScenario extends Scenario {
    /** Longer than pub/sub's: a durable group may still be draining a backlog the publisher left. */
    private static final long IDLE_MILLIS = 10_000;

    private final int baseCount;
    private final int groups;

    FanOutScenario(String name, String summary, List<String> impls, int baseCount, int groups) {
        super(name, summary, impls);
        this.baseCount = baseCount;
        this.groups = groups;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(baseCount, 20);
        if (ctx.config().warmup()) {
            once(impl, ctx, Math.min(n, Math.max(2_000, n / 10)));
        }
        return once(impl, ctx, n);
    }

    private Result once(String impl, Context ctx, int n) throws InterruptedException {
        List<String> bodies = Body.all(n);
        Tracker t = new Tracker(n, groups, false);
        String note = "";
        RedisProbe.Snapshot before;
        long cpuBefore;
        long start;
        try {
            try (BroadcastUnderTest b = Impls.broadcast(impl, ctx.uri(), ctx.freshName(name()))) {
                b.subscribe(groups, t::received);
                before = ctx.probe().commandStats();
                cpuBefore = ctx.probe().cpuMicros();
                start = System.nanoTime();
                long deadline = ctx.deadlineNanos();
                for (int i = 0; i < n; i++) {
                    t.sent(i);
                    b.publish(bodies.get(i));
                    if ((i & 1023) == 0 && System.nanoTime() - deadline > 0) {
                        note = "time limit reached after publishing " + (i + 1) + " of " + n;
                        break;
                    }
                }
                boolean complete = t.await(deadline, IDLE_MILLIS);
                if (note.isEmpty()) {
                    note = incomplete(t, complete, deadline);
                }
            }
            // read after closing: the acks of the last deliveries are in, at the price of the few
            // commands a close makes, which weigh nothing per message at this size
            long delivered = Math.max(1, t.distinct());
            double cpu = ctx.cpuSince(cpuBefore, System.nanoTime() - start) / delivered;
            RedisProbe.Costs costs = RedisProbe.costs(before, ctx.probe().commandStats(), delivered, 8);
            return result(impl, n, t, groups, start, OptionalLong.empty(), OptionalDouble.of(cpu), note)
                    .withCosts(costs);
        } finally {
            ctx.probe().flushAll();
        }
    }
}
