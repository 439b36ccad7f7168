package io.queuekit.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Redis memory per waiting message: {@code used_memory} from INFO on an emptied server, then again
 * once the messages are stored (queued, or scheduled an hour ahead), divided by their number.
 * Nothing is delivered, so the latency fields are 0; lost and dupes compare the count the
 * implementation reports stored with the count sent.
 */
final class MemoryScenario extends Scenario {
    private static final long AHEAD_MILLIS = 3_600_000;

    private final int baseCount;

    MemoryScenario(String name, String summary, List<String> impls, int baseCount) {
        super(name, summary, impls);
        this.baseCount = baseCount;
    }

    @Override
    Result run(String impl, Context ctx) {
        int n = ctx.config().count(baseCount, 20);
        List<String> bodies = Body.all(n);
        ctx.probe().flushAll();
        long before;
        long after;
        long stored;
        long fillNanos;
        boolean queue = impl.equals(Impls.LIST_ALO) || impl.equals(Impls.LIST_AMO);
        String name = ctx.freshName(name());
        try (AutoCloseable under = queue ? Impls.queue(impl, ctx.uri(), name) : Impls.delay(impl, ctx.uri(), name)) {
            before = ctx.probe().usedMemory();
            long start = System.nanoTime();
            if (under instanceof QueueUnderTest q) {
                for (int from = 0; from < n; from += 1000) {
                    q.sendAll(bodies.subList(from, Math.min(n, from + 1000)));
                }
                stored = q.stored();
            } else {
                DelayUnderTest d = (DelayUnderTest) under;
                d.load(bodies, System.currentTimeMillis() + AHEAD_MILLIS);
                stored = d.stored();
            }
            fillNanos = Math.max(1, System.nanoTime() - start);
            after = ctx.probe().usedMemory();
        } catch (Exception e) {
            throw new IllegalStateException(impl + ": " + e.getMessage(), e);
        } finally {
            ctx.probe().flushAll();
        }
        return new Result(
                name(),
                impl,
                n,
                n / (fillNanos / 1e9),
                0,
                0,
                0,
                Math.max(0, stored - n),
                Math.max(0, n - stored),
                OptionalLong.empty(),
                OptionalDouble.empty(),
                OptionalDouble.of((after - before) / (double) n),
                Impls.atLeastOnce(impl),
                "",
                "");
    }
}
