package io.queuekit.bench;

import java.util.List;
import java.util.Locale;

/**
 * What an idle queue object costs Redis: consumers started on an empty queue and left waiting, while
 * the server counts the round trips it reads ({@code total_reads_processed}) and the commands it
 * runs (INFO commandstats, commands run inside scripts included). Nothing is sent or delivered; the
 * result's commands say what a minute costs.
 */
final class IdleScenario extends Scenario {
    private static final int CONSUMERS = 10;
    /** Lets the consumers' first claims pass before the window opens. */
    private static final long SETTLE_MILLIS = 1_000;

    private final long baseMillis;

    IdleScenario(String name, String summary, List<String> impls, long baseMillis) {
        super(name, summary, impls);
        this.baseMillis = baseMillis;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        long millis = Math.max(1_000, Math.round(baseMillis * ctx.config().scale()));
        String name = ctx.freshName(name());
        boolean delay = impl.equals(Impls.ZSET);
        RedisProbe.Snapshot before;
        RedisProbe.Snapshot after;
        try (AutoCloseable under = delay ? Impls.delay(impl, ctx.uri(), name) : Impls.queue(impl, ctx.uri(), name)) {
            if (under instanceof DelayUnderTest d) {
                d.startConsumers(CONSUMERS, 1, body -> {});
            } else {
                ((QueueUnderTest) under).startConsumers(CONSUMERS, 1, body -> {});
            }
            Thread.sleep(SETTLE_MILLIS);
            before = ctx.probe().commandStats();
            Thread.sleep(millis);
            after = ctx.probe().commandStats();
        } finally {
            ctx.probe().flushAll();
        }
        return result(name(), impl, RedisProbe.costs(before, after, 1, 8), millis / 60_000.0);
    }

    /**
     * A row for an idle run whose costs are its totals over {@code minutes}: its counts are per
     * minute, and its commands say so.
     */
    static Result result(String scenario, String impl, RedisProbe.Costs totals, double minutes) {
        Counts c = totals.counts();
        Counts perMinute = new Counts(c.scriptCalls() / minutes, c.commands() / minutes, c.roundTrips() / minutes);
        String text = String.format(
                Locale.ROOT,
                "a minute of %d idle consumers: %.0f round trips, %.0f commands, %.0f script calls (per minute,"
                        + " not per message); in %.1f min: %s",
                CONSUMERS,
                perMinute.roundTrips(),
                perMinute.commands(),
                perMinute.scriptCalls(),
                minutes,
                totals.commands());
        return Result.undelivered(scenario, impl, 0, "", "").withCosts(new RedisProbe.Costs(perMinute, text));
    }
}
