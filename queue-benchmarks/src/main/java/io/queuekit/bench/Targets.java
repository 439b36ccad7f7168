package io.queuekit.bench;

import static io.queuekit.bench.Impls.INMEMORY_ALO;
import static io.queuekit.bench.Impls.INMEMORY_AMO;
import static io.queuekit.bench.Impls.JEDIS_LIST;
import static io.queuekit.bench.Impls.JEDIS_PUBSUB;
import static io.queuekit.bench.Impls.LIST_ALO;
import static io.queuekit.bench.Impls.LIST_ALO_CLUSTER;
import static io.queuekit.bench.Impls.LIST_ALO_POLL;
import static io.queuekit.bench.Impls.LIST_ALO_SHARDS;
import static io.queuekit.bench.Impls.LIST_AMO;
import static io.queuekit.bench.Impls.PUBSUB;
import static io.queuekit.bench.Impls.REDISSON_DELAYED;
import static io.queuekit.bench.Impls.REDISSON_QUEUE;
import static io.queuekit.bench.Impls.ZSET;
import static io.queuekit.bench.Impls.ZSET_BATCH;
import static io.queuekit.bench.Impls.ZSET_LUA;
import static io.queuekit.bench.Impls.ZSET_POLLING;
import static io.queuekit.bench.Scenarios.CLUSTER_SHARDS;
import static io.queuekit.bench.Scenarios.DELAY_BACKLOG;
import static io.queuekit.bench.Scenarios.DELAY_BACKLOG_ONE;
import static io.queuekit.bench.Scenarios.DELAY_LIGHT;
import static io.queuekit.bench.Scenarios.DELAY_LOAD;
import static io.queuekit.bench.Scenarios.DELAY_LOAD_5S;
import static io.queuekit.bench.Scenarios.DELAY_WAITING_0;
import static io.queuekit.bench.Scenarios.DELAY_WAITING_1M;
import static io.queuekit.bench.Scenarios.IN_FLIGHT_1K;
import static io.queuekit.bench.Scenarios.IN_FLIGHT_50K;
import static io.queuekit.bench.Scenarios.IN_MEMORY;
import static io.queuekit.bench.Scenarios.MEMORY;
import static io.queuekit.bench.Scenarios.PUBSUB_FANOUT;
import static io.queuekit.bench.Scenarios.SCRIPT_COST;
import static io.queuekit.bench.Scenarios.WORK_QUEUE;
import static io.queuekit.bench.Scenarios.WORK_QUEUE_BATCH;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The targets of issue 6, checked as ratios between results of the same run. */
final class Targets {

    /** One target: what was measured against what, and whether it held; null when not measured. */
    record Check(String target, String measured, Boolean pass) {
        String line() {
            return "TARGET " + (pass == null ? "n/a " : pass ? "PASS" : "MISS") + "  " + target + ": " + measured;
        }
    }

    private final List<Result> results;
    private final List<Check> checks = new ArrayList<>();

    private Targets(List<Result> results) {
        this.results = results;
    }

    static List<Check> evaluate(List<Result> results) {
        Targets t = new Targets(results);
        t.ratio(WORK_QUEUE, LIST_ALO, WORK_QUEUE, REDISSON_QUEUE, 2.5, "list at-least-once vs Redisson RBlockingQueue");
        t.ratio(WORK_QUEUE, LIST_ALO, WORK_QUEUE, JEDIS_LIST, 0.85, "list at-least-once vs plain Jedis");
        t.cpuAgainst(WORK_QUEUE, LIST_ALO, JEDIS_LIST, "plain Jedis", 1.5, "list at-least-once");
        t.ratio(
                WORK_QUEUE,
                LIST_ALO_POLL,
                WORK_QUEUE,
                JEDIS_LIST,
                0.7,
                "list at-least-once poll + ack by hand vs plain Jedis");
        t.ratio(WORK_QUEUE, LIST_AMO, WORK_QUEUE, JEDIS_LIST, 0.9, "list at-most-once vs plain Jedis");
        t.ratio(WORK_QUEUE_BATCH, LIST_ALO, WORK_QUEUE, LIST_ALO, 5.0, "list at-least-once batch vs one-by-one");
        t.ratio(WORK_QUEUE_BATCH, LIST_AMO, WORK_QUEUE, LIST_AMO, 5.0, "list at-most-once batch vs one-by-one");
        t.below(DELAY_LOAD, ZSET, 10.0, "delay under load: lateness p99 < 10 ms, none early");
        t.ratio(DELAY_BACKLOG, ZSET, DELAY_BACKLOG, ZSET_POLLING, 10.0, "delay backlog drain vs polling ZSET");
        t.ratio(DELAY_BACKLOG, ZSET, DELAY_BACKLOG, ZSET_LUA, 3.0, "delay backlog drain vs Lua-claim ZSET");
        t.ratio(
                DELAY_BACKLOG,
                ZSET,
                DELAY_BACKLOG,
                ZSET_BATCH,
                0.7,
                "delay backlog, 100 per claim, vs the batch-claim prototype");
        t.cpuAgainst(DELAY_BACKLOG, ZSET, ZSET_BATCH, "the batch-claim prototype", 1.5, "delay backlog, 100 per claim");
        t.ratio(
                DELAY_BACKLOG_ONE,
                ZSET,
                DELAY_BACKLOG_ONE,
                ZSET_LUA,
                1.5,
                "delay backlog, consume() with defaults, vs Lua-claim ZSET");
        t.ratio(
                DELAY_WAITING_1M,
                ZSET,
                DELAY_WAITING_0,
                ZSET,
                0.67,
                "delay drain with 1,000,000 waiting vs none (1/1.5)");
        t.deep(1.5);
        for (String s : List.of(DELAY_LOAD, DELAY_BACKLOG, DELAY_LIGHT)) {
            t.cpu(s);
        }
        t.cpuShare(DELAY_LIGHT, 4);
        t.cpuAgainstRecipe(DELAY_LOAD_5S);
        t.producer(DELAY_LOAD_5S, 1.2);
        t.below(DELAY_LOAD_5S, ZSET, 10.0, "delay-load-5s: lateness p99 < 10 ms, none early");
        t.perCall(2.0);
        t.below(DELAY_LIGHT, ZSET, 5.0, "light load: lateness p99 < 5 ms, none early");
        t.ratio(PUBSUB_FANOUT, PUBSUB, PUBSUB_FANOUT, JEDIS_PUBSUB, 0.8, "pub/sub vs plain Jedis");
        t.atLeast(IN_MEMORY, INMEMORY_ALO, 1_000_000, "in-memory at-least-once >= 1,000,000 msgs/s");
        t.atLeast(IN_MEMORY, INMEMORY_AMO, 1_000_000, "in-memory at-most-once >= 1,000,000 msgs/s");
        t.memory(LIST_ALO);
        t.memory(ZSET);
        t.flat(LIST_ALO);
        t.flat(ZSET);
        t.shares(CLUSTER_SHARDS, LIST_ALO_SHARDS, 0.1);
        t.cpuAgainst(
                CLUSTER_SHARDS,
                LIST_ALO_SHARDS,
                LIST_ALO_CLUSTER,
                "the unsharded queue",
                1.2,
                "shards(3) on 3 masters");
        t.reported(
                CLUSTER_SHARDS, LIST_ALO_SHARDS, LIST_ALO_CLUSTER, "shards(3) on 3 masters vs unsharded, throughput");
        return t.checks;
    }

    private Optional<Result> find(String scenario, String impl) {
        return results.stream()
                .filter(r -> r.scenario().equals(scenario) && r.impl().equals(impl))
                .findFirst();
    }

    private void ratio(String s1, String i1, String s2, String i2, double want, String what) {
        String target = what + " >= " + want + "x";
        compare(s1, i1, s2, i2, target, Result::msgsPerS, (a, b) -> {
            double r = b == 0 ? Double.POSITIVE_INFINITY : a / b;
            return new Check(
                    target,
                    fmt(r) + "x (" + Result.fmt("%.0f", a) + " vs " + Result.fmt("%.0f", b) + " msgs/s)",
                    r >= want);
        });
    }

    private void cpu(String scenario) {
        String target = scenario + ": Redis CPU per message <= 1/20 of RDelayedQueue's";
        ToDoubleFunction<Result> cpu = r -> r.redisCpuUsPerMsg().orElse(Double.NaN);
        compare(
                scenario,
                ZSET,
                scenario,
                REDISSON_DELAYED,
                target,
                cpu,
                (a, b) -> new Check(
                        target,
                        (a == 0 ? "-" : "1/" + fmt(b / a)) + " (" + Result.fmt("%.2f", a) + " vs "
                                + Result.fmt("%.2f", b) + " us/msg)",
                        a * 20 <= b));
    }

    /** The light-load target: at most 1/divisor of RDelayedQueue's Redis CPU per message. */
    private void cpuShare(String scenario, int divisor) {
        String target = scenario + ": Redis CPU per message <= 1/" + divisor + " of RDelayedQueue's";
        ToDoubleFunction<Result> cpu = r -> r.redisCpuUsPerMsg().orElse(Double.NaN);
        compare(
                scenario,
                ZSET,
                scenario,
                REDISSON_DELAYED,
                target,
                cpu,
                (a, b) -> new Check(
                        target,
                        (a == 0 ? "-" : "1/" + fmt(b / a)) + " (" + Result.fmt("%.2f", a) + " vs "
                                + Result.fmt("%.2f", b) + " us/msg)",
                        a * divisor <= b));
    }

    /**
     * Every delay queue script call within {@code max} times the list queue's ack script, each
     * measured alone ({@link ScriptCostScenario}).
     */
    private void perCall(double max) {
        String target = "delay queue: each script call's server time <= " + max + "x the list queue's ack script";
        Optional<Result> list = find(SCRIPT_COST, LIST_ALO);
        Optional<Result> zset = find(SCRIPT_COST, ZSET);
        Optional<Double> ack = list.flatMap(r -> opMicros(r.commands(), "ack"));
        if (zset.isEmpty() || ack.isEmpty()) {
            checks.add(new Check(target, "not measured", null));
            return;
        }
        List<String> each = new ArrayList<>();
        boolean pass = !zset.get().commands().contains(" made ");
        double worst = 0;
        for (String part : zset.get().commands().split(", ", -1)) {
            int at = part.indexOf(" us/call");
            if (at < 0) {
                continue;
            }
            String op = part.substring(0, part.indexOf(' '));
            double r = Double.parseDouble(part.substring(op.length() + 1, at)) / ack.get();
            worst = Math.max(worst, r);
            each.add(op + " " + fmt(r) + "x");
        }
        checks.add(new Check(
                target,
                String.join(", ", each) + " (list ack " + Result.fmt("%.1f", ack.get()) + " us/call)",
                pass && !each.isEmpty() && worst <= max));
    }

    /** The us/call of op in a {@link ScriptCostScenario} result's commands. */
    static Optional<Double> opMicros(String commands, String op) {
        for (String part : commands.split(", ", -1)) {
            if (part.startsWith(op + " ") && part.endsWith(" us/call")) {
                return Optional.of(Double.parseDouble(part.substring(op.length() + 1, part.length() - 8)));
            }
        }
        return Optional.empty();
    }

    private void cpuAgainstRecipe(String scenario) {
        cpuAgainst(scenario, ZSET, ZSET_LUA, "the Lua-claim recipe", 1.0, scenario);
    }

    /** Redis CPU per message of {@code ours} at most {@code max} times that of {@code peer}, in one scenario. */
    private void cpuAgainst(String scenario, String ours, String peer, String peerName, double max, String what) {
        String target = what + ": Redis CPU per message <= " + (max == 1.0 ? "" : max + "x ") + peerName + "'s";
        ToDoubleFunction<Result> cpu = r -> r.redisCpuUsPerMsg().orElse(Double.NaN);
        compare(
                scenario,
                ours,
                scenario,
                peer,
                target,
                cpu,
                (a, b) -> new Check(
                        target,
                        fmt(b == 0 ? Double.POSITIVE_INFINITY : a / b) + "x (" + Result.fmt("%.2f", a) + " vs "
                                + Result.fmt("%.2f", b) + " us/msg)",
                        a <= max * b));
    }

    /** Producer time and Redis CPU per message with 1,000,000 waiting within {@code max} times those with none. */
    private void deep(double max) {
        String target =
                "delay with 1,000,000 waiting: producer time and Redis CPU per message <= " + max + "x with none";
        Optional<Result> a = find(DELAY_WAITING_1M, ZSET);
        Optional<Result> b = find(DELAY_WAITING_0, ZSET);
        if (a.isEmpty() || b.isEmpty() || !usable(a.get()) || !usable(b.get())) {
            checks.add(new Check(target, "not measured", null));
            return;
        }
        double send = a.get().producerSeconds().orElse(Double.NaN)
                / b.get().producerSeconds().orElse(Double.NaN);
        double cpu = a.get().redisCpuUsPerMsg().orElse(Double.NaN)
                / b.get().redisCpuUsPerMsg().orElse(Double.NaN);
        checks.add(new Check(
                target,
                "producer " + fmt(send) + "x, CPU " + fmt(cpu) + "x ("
                        + Result.fmt("%.2f", a.get().redisCpuUsPerMsg().orElse(Double.NaN)) + " vs "
                        + Result.fmt("%.2f", b.get().redisCpuUsPerMsg().orElse(Double.NaN)) + " us/msg)",
                send <= max && cpu <= max));
    }

    /** Our producer's time to send every message within {@code max} times the Lua-claim recipe's. */
    private void producer(String scenario, double max) {
        String target = scenario + ": producer's time <= " + max + "x the Lua-claim recipe's";
        ToDoubleFunction<Result> secs = r -> r.producerSeconds().orElse(Double.NaN);
        compare(
                scenario,
                ZSET,
                scenario,
                ZSET_LUA,
                target,
                secs,
                (a, b) -> new Check(
                        target,
                        fmt(b == 0 ? Double.POSITIVE_INFINITY : a / b) + "x (" + Result.fmt("%.2f", a) + " vs "
                                + Result.fmt("%.2f", b) + " s)",
                        a <= max * b));
    }

    private void memory(String impl) {
        String target = impl + " bytes per waiting message <= RDelayedQueue's";
        ToDoubleFunction<Result> bytes = r -> r.bytesPerMsg().orElse(Double.NaN);
        compare(
                MEMORY,
                impl,
                MEMORY,
                REDISSON_DELAYED,
                target,
                bytes,
                (a, b) -> new Check(target, Result.fmt("%.1f", a) + " vs " + Result.fmt("%.1f", b) + " B", a <= b));
    }

    /** Redis CPU per ack with 50,000 in flight within 1.5x of that with 1,000. */
    private void flat(String impl) {
        String target = impl + ": Redis CPU per ack with 50,000 in flight <= 1.5x that with 1,000";
        ToDoubleFunction<Result> cpu = r -> r.redisCpuUsPerMsg().orElse(Double.NaN);
        compare(
                IN_FLIGHT_50K,
                impl,
                IN_FLIGHT_1K,
                impl,
                target,
                cpu,
                (a, b) -> new Check(
                        target,
                        fmt(b == 0 ? Double.POSITIVE_INFINITY : a / b) + "x (" + Result.fmt("%.2f", a) + " vs "
                                + Result.fmt("%.2f", b) + " us/ack)",
                        a <= 1.5 * b));
    }

    /** Each server's share of the Redis CPU within {@code tolerance} (relative) of an even share. */
    private void shares(String scenario, String impl, double tolerance) {
        Optional<Result> r = find(scenario, impl);
        String target = impl + ": each master's share of the Redis CPU within " + Math.round(tolerance * 100)
                + "% of an even share";
        checks.add(r.filter(x -> !x.serverShares().isEmpty())
                .map(x -> {
                    double even = 1.0 / x.serverShares().size();
                    boolean pass = usable(x)
                            && x.serverShares().stream().allMatch(s -> Math.abs(s - even) <= tolerance * even);
                    List<String> each = x.serverShares().stream()
                            .map(s -> Result.fmt("%.3f", s))
                            .toList();
                    return new Check(
                            target, String.join(" / ", each) + " (even: " + Result.fmt("%.3f", even) + ")", pass);
                })
                .orElse(new Check(target, "not measured", null)));
    }

    /** A ratio of rates that has no target, reported as measured. */
    private void reported(String scenario, String ours, String peer, String what) {
        compare(
                scenario,
                ours,
                scenario,
                peer,
                what,
                Result::msgsPerS,
                (a, b) -> new Check(
                        what,
                        fmt(b == 0 ? Double.POSITIVE_INFINITY : a / b) + "x (" + Result.fmt("%.0f", a) + " vs "
                                + Result.fmt("%.0f", b) + " msgs/s)",
                        null));
    }

    private void below(String scenario, String impl, double p99, String target) {
        Optional<Result> r = find(scenario, impl);
        checks.add(r.map(x -> new Check(
                        target,
                        "p99 " + Result.fmt("%.3f", x.p99Ms()) + " ms, early "
                                + x.early().orElse(0),
                        usable(x) && x.p99Ms() < p99 && x.early().orElse(0) == 0))
                .orElse(new Check(target, "not measured", null)));
    }

    private void atLeast(String scenario, String impl, double perS, String target) {
        Optional<Result> r = find(scenario, impl);
        checks.add(r.map(x -> new Check(
                        target, Result.fmt("%.0f", x.msgsPerS()) + " msgs/s", usable(x) && x.msgsPerS() >= perS))
                .orElse(new Check(target, "not measured", null)));
    }

    private interface Judge {
        Check judge(double ours, double theirs);
    }

    private void compare(
            String s1, String i1, String s2, String i2, String target, ToDoubleFunction<Result> f, Judge judge) {
        Optional<Result> a = find(s1, i1);
        Optional<Result> b = find(s2, i2);
        if (a.isEmpty() || b.isEmpty()) {
            checks.add(new Check(target, "not measured", null));
            return;
        }
        if (b.get().note().startsWith(Bench.FAILED)) {
            checks.add(new Check(target, i2 + " failed", null));
            return;
        }
        if (a.get().note().startsWith(Bench.FAILED)) {
            checks.add(new Check(target, i1 + " failed", false));
            return;
        }
        Check c = judge.judge(f.applyAsDouble(a.get()), f.applyAsDouble(b.get()));
        if (!usable(a.get())) {
            c = new Check(c.target(), c.measured() + "; ours lost messages or was cut short", false);
        }
        checks.add(c);
    }

    /** A result of ours only counts if it delivered everything. */
    private static boolean usable(Result r) {
        return r.lost() == 0 && r.note().isEmpty();
    }

    private static String fmt(double x) {
        return Double.isInfinite(x) ? "inf" : Result.fmt(x >= 10 ? "%.1f" : "%.2f", x);
    }
}
