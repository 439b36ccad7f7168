package io.queuekit.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import redis.clients.jedis.RedisClient;

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
        Map<String, long[]> before;
        Map<String, long[]> after;
        long reads;
        try (AutoCloseable under = delay ? Impls.delay(impl, ctx.uri(), name) : Impls.queue(impl, ctx.uri(), name);
                RedisClient stats = RedisClient.create(ctx.uri())) {
            if (under instanceof DelayUnderTest d) {
                d.startConsumers(CONSUMERS, 1, body -> {});
            } else {
                ((QueueUnderTest) under).startConsumers(CONSUMERS, 1, body -> {});
            }
            Thread.sleep(SETTLE_MILLIS);
            long readsBefore = readsProcessed(stats);
            before = ctx.probe().commandStats();
            Thread.sleep(millis);
            after = ctx.probe().commandStats();
            // less the reads of this scenario's own INFO calls since the first
            reads = readsProcessed(stats) - readsBefore - 3;
        } finally {
            ctx.probe().flushAll();
        }
        double minutes = millis / 60_000.0;
        String commands = String.format(
                Locale.ROOT,
                "a minute of %d idle consumers: %.0f round trips, commands %s",
                CONSUMERS,
                reads / minutes,
                perMinute(before, after, minutes));
        return new Result(
                        name(),
                        impl,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        OptionalLong.empty(),
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        Impls.atLeastOnce(impl),
                        "",
                        "")
                .withCommands(commands);
    }

    private static long readsProcessed(RedisClient client) {
        for (String line : client.info("stats").split("\r?\n", -1)) {
            if (line.startsWith("total_reads_processed:")) {
                return Long.parseLong(
                        line.substring("total_reads_processed:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO stats has no total_reads_processed");
    }

    /** The commands run between two snapshots, most called first, per minute: "blpop 60.0, ...". */
    private static String perMinute(Map<String, long[]> before, Map<String, long[]> after, double minutes) {
        Map<String, Long> calls = new HashMap<>();
        after.forEach((command, v) -> {
            long n = v[0] - before.getOrDefault(command, new long[2])[0];
            if (n > 0 && !command.equals("info")) {
                calls.put(command, n);
            }
        });
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(calls.entrySet());
        sorted.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Long> e : sorted) {
            parts.add(String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() / minutes));
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
}
