package io.queuekit.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** One publisher and several subscribers on one channel: every subscriber should get every message. */
final class PubSubScenario extends Scenario {
    private static final long IDLE_MILLIS = 5_000;

    private final int baseCount;
    private final int subscribers;

    PubSubScenario(String name, String summary, List<String> impls, int baseCount, int subscribers) {
        super(name, summary, impls);
        this.baseCount = baseCount;
        this.subscribers = subscribers;
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
        Tracker t = new Tracker(n, subscribers, false);
        String note = "";
        RedisProbe.Costs costs;
        long start;
        try (BroadcastUnderTest b = Impls.broadcast(impl, ctx.uri(), ctx.freshName(name()))) {
            b.subscribe(subscribers, t::received);
            RedisProbe.Snapshot before = ctx.probe().commandStats();
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
            costs = RedisProbe.costs(before, ctx.probe().commandStats(), n, 6);
        } finally {
            ctx.probe().flushAll();
        }
        return result(impl, n, t, subscribers, start, OptionalLong.empty(), OptionalDouble.empty(), note)
                .withCosts(costs);
    }
}
