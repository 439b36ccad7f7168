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
import static io.queuekit.bench.Impls.REDISSON_RELIABLE_TOPIC;
import static io.queuekit.bench.Impls.STREAM_TOPIC;
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
import static io.queuekit.bench.Scenarios.TOPIC_FANOUT;
import static io.queuekit.bench.Scenarios.WORK_QUEUE;
import static io.queuekit.bench.Scenarios.WORK_QUEUE_BATCH;

import io.queuekit.bench.Check.Figure;
import io.queuekit.bench.Check.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's targets (issue 32's, and those of earlier issues that still make sense), each
 * judged on one run as ratios between results of that run; {@link Check#verdicts} judges them
 * over the runs. Targets retired, with the reason, are in {@link #RETIRED}.
 */
final class Targets {
    /** The BullMQ peer's implementation name. */
    static final String BULLMQ = Impls.BULLMQ;

    /** A retired target and why. */
    record Retired(String target, String reason) {}

    static final List<Retired> RETIRED = List.of(
            new Retired(
                    "list at-least-once vs Redisson RBlockingQueue >= 2.5x",
                    "RBlockingQueue's own rate moved from 0.27x to 0.48x of plain Jedis's between runs, so the"
                            + " target moved between 0.7x and 1.2x of plain Jedis; the list queue is judged against"
                            + " plain Jedis (>= 1.0x) instead"),
            new Retired("list at-least-once vs plain Jedis >= 0.85x", "replaced by issue 32's >= 1.0x"),
            new Retired(
                    "delay backlog, 100 per claim: Redis CPU per message <= 1.5x the batch-claim prototype's",
                    "only a claim without attempts, fencing or reaping, as the prototype's, can cost that little;"
                            + " the drain rate against it (>= 0.7x) is kept"),
            new Retired(
                    "delay backlog, consume() with defaults, vs Lua-claim ZSET >= 1.5x",
                    "1.41x to 2.12x over two runs, on both sides of the line; consume() on a backlog is judged"
                            + " against BullMQ"),
            new Retired(
                    "delay-load-5s: producer's time <= 1.2x the Lua-claim recipe's",
                    "the recipe stores a message with one ZADD and keeps no id, body or attempt apart; only a send"
                            + " without those meets it"),
            new Retired(
                    "delay queue: each script call's server time <= 2x the list queue's ack script",
                    "the server time of one call moved more between hours (24 to 64 us for a claim of one) than"
                            + " the gaps it judged; script calls and commands per message are counted instead, and"
                            + " script-cost still prints the times"),
            new Retired(
                    "light load: lateness p99 < 5 ms",
                    "2.1 to 15.8 ms in runs of unchanged code; the issue's bound of 10 ms is kept"),
            new Retired(
                    "delay-load, delay-backlog, delay-light: Redis CPU per message <= 1/20 of RDelayedQueue's",
                    "an earlier round's goal, never near (1/1.0 to 1/4.1); replaced by the targets against BullMQ"
                            + " and 1/4 of RDelayedQueue's at light load"),
            new Retired(
                    "in-memory at-least-once and at-most-once >= 1,000,000 msgs/s",
                    "the stand-in is judged on fidelity (issue 32), and its rate swung between 416,000 and 2.3"
                            + " million msgs/s from run to run and within one JVM; replaced by >= 300,000"));

    private final List<Result> results;
    private final List<Check> checks = new ArrayList<>();

    private Targets(List<Result> results) {
        this.results = results;
    }

    /** Every target judged on the results of one run. */
    static List<Check> evaluate(List<Result> results) {
        Targets t = new Targets(results);
        t.ratio(
                WORK_QUEUE,
                LIST_ALO,
                WORK_QUEUE,
                JEDIS_LIST,
                1.0,
                "list at-least-once consume() vs plain Jedis" + " LPUSH + BRPOP");
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
        t.bullmq(WORK_QUEUE, LIST_ALO, WORK_QUEUE, false);
        t.bullmq(DELAY_LOAD_5S, ZSET, DELAY_LOAD_5S, true);
        t.bullmq(DELAY_LIGHT, ZSET, DELAY_LIGHT, true);
        t.bullmq(DELAY_BACKLOG_ONE, ZSET, DELAY_BACKLOG, false);
        t.reportedAgainstBullmq(DELAY_BACKLOG, ZSET);
        t.below(DELAY_LOAD, ZSET, 10.0, "delay under load: lateness p99 < 10 ms, none early");
        t.below(DELAY_LOAD_5S, ZSET, 10.0, "delay-load-5s: lateness p99 < 10 ms, none early");
        t.below(DELAY_LIGHT, ZSET, 10.0, "light load: lateness p99 < 10 ms, none early");
        t.cpuAgainst(DELAY_LOAD_5S, ZSET, ZSET_LUA, "the Lua-claim recipe", 1.0, DELAY_LOAD_5S + " consume()");
        t.cpuAgainst(DELAY_LIGHT, ZSET, REDISSON_DELAYED, "RDelayedQueue", 0.25, "light load");
        t.cpuAgainst(DELAY_LIGHT, ZSET, BULLMQ, "BullMQ", 0.25, "light load");
        t.ratio(DELAY_BACKLOG, ZSET, DELAY_BACKLOG, ZSET_POLLING, 10.0, "delay backlog drain vs polling ZSET");
        t.ratio(DELAY_BACKLOG, ZSET, DELAY_BACKLOG, ZSET_LUA, 3.0, "delay backlog drain vs Lua-claim ZSET");
        t.ratio(
                DELAY_BACKLOG,
                ZSET,
                DELAY_BACKLOG,
                ZSET_BATCH,
                0.7,
                "delay backlog, 100 per claim, vs the batch-claim prototype");
        t.ratio(
                DELAY_WAITING_1M,
                ZSET,
                DELAY_WAITING_0,
                ZSET,
                0.67,
                "flat: delay drain with 1,000,000 waiting vs none (1/1.5)");
        t.deep(1.5);
        t.flat(LIST_ALO);
        t.flat(ZSET);
        t.ratio(PUBSUB_FANOUT, PUBSUB, PUBSUB_FANOUT, JEDIS_PUBSUB, 0.8, "pub/sub vs plain Jedis");
        t.reportedAgainst(TOPIC_FANOUT, STREAM_TOPIC, REDISSON_RELIABLE_TOPIC, "Redisson RReliableTopic");
        t.reportedAgainst(TOPIC_FANOUT, STREAM_TOPIC, PUBSUB, "pub/sub");
        t.atLeast(IN_MEMORY, INMEMORY_ALO, 300_000, "in-memory at-least-once >= 300,000 msgs/s");
        t.atLeast(IN_MEMORY, INMEMORY_AMO, 300_000, "in-memory at-most-once >= 300,000 msgs/s");
        t.memory(LIST_ALO);
        t.memory(ZSET);
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
            return check(target, r >= want, "{} ({} vs {} msgs/s)", Figure.ratio(r), rate(a), rate(b));
        });
    }

    /**
     * Issue 32's target against BullMQ in one shape: at most half its Redis CPU per message, at
     * least its rate, and where lateness is measured, p99 under 10 ms with none early.
     */
    private void bullmq(String ourScenario, String ours, String theirScenario, boolean lateness) {
        String shape = ourScenario.equals(theirScenario) ? ourScenario : ourScenario + " vs " + theirScenario;
        String target = shape + ": " + ours + " Redis CPU per message <= 1/2 of BullMQ's, msgs/s >= BullMQ's"
                + (lateness ? ", p99 lateness < 10 ms, none early" : "");
        Optional<String> missing = missingCpu(ourScenario, ours, theirScenario, BULLMQ);
        if (missing.isPresent()) {
            checks.add(Check.notMeasured(target, missing.get()));
            return;
        }
        Result a = find(ourScenario, ours).orElseThrow();
        Result b = find(theirScenario, BULLMQ).orElseThrow();
        double cpuA = cpu(a);
        double cpuB = cpu(b);
        double cpu = cpuB == 0 ? Double.POSITIVE_INFINITY : cpuA / cpuB;
        double rate = b.msgsPerS() == 0 ? Double.POSITIVE_INFINITY : a.msgsPerS() / b.msgsPerS();
        boolean pass = usable(a) && cpuA <= 0.5 * cpuB && a.msgsPerS() >= b.msgsPerS();
        List<Figure> figures = new ArrayList<>(List.of(
                Figure.ratio(cpu), us(cpuA), us(cpuB), Figure.ratio(rate), rate(a.msgsPerS()), rate(b.msgsPerS())));
        String text = "CPU {} ({} vs {} us/msg), rate {} ({} vs {} msgs/s)";
        if (lateness) {
            pass &= a.p99Ms() < 10.0 && a.early().orElse(0) == 0;
            figures.add(Figure.of(a.p99Ms(), "%.1f"));
            figures.add(Figure.of(b.p99Ms(), "%.1f"));
            figures.add(Figure.of((double) a.early().orElse(0), "%.0f"));
            text += ", p99 {} ms (BullMQ {}), early {}";
        }
        checks.add(withUsability(new Check(target, pass ? Outcome.PASS : Outcome.MISS, text, figures), a));
    }

    /** Our row of a scenario against BullMQ's, without a target. */
    private void reportedAgainstBullmq(String scenario, String ours) {
        reportedAgainst(scenario, ours, BULLMQ, "BullMQ");
    }

    /** Our Redis CPU per message and rate against a peer's in one scenario, without a target. */
    private void reportedAgainst(String scenario, String ours, String peer, String peerName) {
        String what = scenario + ": " + ours + " against " + peerName + " (no target)";
        Optional<String> missing = missingCpu(scenario, ours, scenario, peer);
        if (missing.isPresent()) {
            checks.add(Check.notMeasured(what, missing.get()).asInfo());
            return;
        }
        Result a = find(scenario, ours).orElseThrow();
        Result b = find(scenario, peer).orElseThrow();
        checks.add(check(
                        what,
                        true,
                        "CPU {} ({} vs {} us/msg), rate {}",
                        Figure.ratio(cpu(a) / cpu(b)),
                        us(cpu(a)),
                        us(cpu(b)),
                        Figure.ratio(a.msgsPerS() / b.msgsPerS()))
                .asInfo());
    }

    /** Redis CPU per message of {@code ours} at most {@code max} times that of {@code peer}, in one scenario. */
    private void cpuAgainst(String scenario, String ours, String peer, String peerName, double max, String what) {
        String bound = max == 1.0 ? "" : max < 1 ? "1/" + Math.round(1 / max) + " of " : max + "x ";
        String target = what + ": Redis CPU per message <= " + bound + peerName + "'s";
        compareCpu(
                scenario,
                ours,
                scenario,
                peer,
                target,
                (a, b) -> check(
                        target,
                        a <= max * b,
                        "{} ({} vs {} us/msg)",
                        Figure.ratio(b == 0 ? Double.POSITIVE_INFINITY : a / b),
                        us(a),
                        us(b)));
    }

    /** Producer time and Redis CPU per message with 1,000,000 waiting within {@code max} times those with none. */
    private void deep(double max) {
        String target =
                "flat: delay with 1,000,000 waiting: producer time and Redis CPU per message <= " + max + "x with none";
        Optional<String> missing = missingCpu(DELAY_WAITING_1M, ZSET, DELAY_WAITING_0, ZSET);
        if (missing.isPresent()) {
            checks.add(Check.notMeasured(target, missing.get()));
            return;
        }
        Result a = find(DELAY_WAITING_1M, ZSET).orElseThrow();
        Result b = find(DELAY_WAITING_0, ZSET).orElseThrow();
        double send =
                a.producerSeconds().orElse(Double.NaN) / b.producerSeconds().orElse(Double.NaN);
        double cpu = cpu(a) / cpu(b);
        checks.add(withUsability(
                check(
                        target,
                        send <= max && cpu <= max,
                        "producer {}, CPU {} ({} vs {} us/msg)",
                        Figure.ratio(send),
                        Figure.ratio(cpu),
                        us(cpu(a)),
                        us(cpu(b))),
                a));
    }

    private void memory(String impl) {
        String target = impl + " bytes per waiting message <= RDelayedQueue's";
        compare(
                MEMORY,
                impl,
                MEMORY,
                REDISSON_DELAYED,
                target,
                r -> r.bytesPerMsg().orElse(Double.NaN),
                (a, b) -> check(target, a <= b, "{} vs {} B", Figure.of(a, "%.1f"), Figure.of(b, "%.1f")));
    }

    /** Redis CPU per ack with 50,000 in flight within 1.5x of that with 1,000. */
    private void flat(String impl) {
        String target = "flat: " + impl + " Redis CPU per ack with 50,000 in flight <= 1.5x that with 1,000";
        compareCpu(
                IN_FLIGHT_50K,
                impl,
                IN_FLIGHT_1K,
                impl,
                target,
                (a, b) -> check(
                        target,
                        a <= 1.5 * b,
                        "{} ({} vs {} us/ack)",
                        Figure.ratio(b == 0 ? Double.POSITIVE_INFINITY : a / b),
                        us(a),
                        us(b)));
    }

    /** Each server's share of the Redis CPU within {@code tolerance} (relative) of an even share. */
    private void shares(String scenario, String impl, double tolerance) {
        Optional<Result> r = find(scenario, impl);
        String target = impl + ": each master's share of the Redis CPU within " + Math.round(tolerance * 100)
                + "% of an even share";
        if (r.isEmpty() || r.get().serverShares().isEmpty()) {
            checks.add(Check.notMeasured(target, "not measured"));
            return;
        }
        List<Double> shares = r.get().serverShares();
        double even = 1.0 / shares.size();
        boolean pass = usable(r.get()) && shares.stream().allMatch(s -> Math.abs(s - even) <= tolerance * even);
        List<Figure> figures = shares.stream().map(s -> Figure.of(s, "%.3f")).toList();
        String text = String.join(" / ", Collections.nCopies(shares.size(), "{}")) + " (even: "
                + Result.fmt("%.3f", even) + ")";
        checks.add(new Check(target, pass ? Outcome.PASS : Outcome.MISS, text, figures));
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
                (a, b) -> check(
                                what,
                                true,
                                "{} ({} vs {} msgs/s)",
                                Figure.ratio(b == 0 ? Double.POSITIVE_INFINITY : a / b),
                                rate(a),
                                rate(b))
                        .asInfo());
    }

    private void below(String scenario, String impl, double p99, String target) {
        Optional<Result> r = find(scenario, impl);
        if (r.isEmpty()) {
            checks.add(Check.notMeasured(target, "not measured"));
            return;
        }
        Result x = r.get();
        boolean pass = usable(x) && x.p99Ms() < p99 && x.early().orElse(0) == 0;
        checks.add(withUsability(
                check(
                        target,
                        pass,
                        "p99 {} ms, early {}",
                        Figure.of(x.p99Ms(), "%.1f"),
                        Figure.of((double) x.early().orElse(0), "%.0f")),
                x));
    }

    private void atLeast(String scenario, String impl, double perS, String target) {
        Optional<Result> r = find(scenario, impl);
        checks.add(r.map(x -> withUsability(check(target, x.msgsPerS() >= perS, "{} msgs/s", rate(x.msgsPerS())), x))
                .orElse(Check.notMeasured(target, "not measured")));
    }

    private interface Judge {
        Check judge(double ours, double theirs);
    }

    private void compareCpu(String s1, String i1, String s2, String i2, String target, Judge judge) {
        Optional<String> missing = missingCpu(s1, i1, s2, i2);
        if (missing.isPresent()) {
            checks.add(Check.notMeasured(target, missing.get()));
            return;
        }
        compare(s1, i1, s2, i2, target, Targets::cpu, judge);
    }

    private void compare(
            String s1, String i1, String s2, String i2, String target, ToDoubleFunction<Result> f, Judge judge) {
        Optional<String> missing = missing(s1, i1, s2, i2);
        if (missing.isPresent()) {
            checks.add(Check.notMeasured(target, missing.get()));
            return;
        }
        Result a = find(s1, i1).orElseThrow();
        Result b = find(s2, i2).orElseThrow();
        checks.add(withUsability(judge.judge(f.applyAsDouble(a), f.applyAsDouble(b)), a));
    }

    /**
     * Why a comparison of ours against a peer cannot be judged: a row is missing, or the peer's
     * run failed or measured nothing (a peer that cannot run here reports no rate); empty if it can.
     * Ours failing is no reason: that is a miss.
     */
    private Optional<String> missing(String s1, String ours, String s2, String peer) {
        Optional<Result> a = find(s1, ours);
        Optional<Result> b = find(s2, peer);
        if (a.isEmpty() || b.isEmpty()) {
            return Optional.of("not measured" + (a.isPresent() ? ": no " + peer + " row in " + s2 : ""));
        }
        Result p = b.get();
        if (p.note().startsWith(Bench.FAILED)) {
            return Optional.of(peer + " failed");
        }
        if (p.msgsPerS() == 0 && !p.note().isEmpty()) {
            return Optional.of(peer + ": " + p.note());
        }
        return Optional.empty();
    }

    /** As {@link #missing}, and the peer's Redis CPU must have been measured. */
    private Optional<String> missingCpu(String s1, String ours, String s2, String peer) {
        return missing(s1, ours, s2, peer)
                .or(() -> find(s2, peer).orElseThrow().redisCpuUsPerMsg().isEmpty()
                        ? Optional.of("no Redis CPU measured for " + peer + " in " + s2)
                        : Optional.empty());
    }

    /** A check of ours that failed, lost messages or was cut short is a miss, whatever it measured. */
    private static Check withUsability(Check c, Result ours) {
        if (usable(ours) || c.outcome() == Outcome.INFO) {
            return c;
        }
        String why =
                ours.note().startsWith(Bench.FAILED) ? ours.impl() + " failed" : "ours lost messages or was cut short";
        return new Check(c.target(), Outcome.MISS, c.text() + "; " + why, c.figures());
    }

    private static Check check(String target, boolean pass, String text, Figure... figures) {
        return new Check(target, pass ? Outcome.PASS : Outcome.MISS, text, List.of(figures));
    }

    private static double cpu(Result r) {
        return r.redisCpuUsPerMsg().orElse(Double.NaN);
    }

    private static Figure rate(double perS) {
        return Figure.of(perS, "%.0f");
    }

    private static Figure us(double micros) {
        return Figure.of(micros, "%.2f");
    }

    /** A result of ours only counts if it delivered everything. */
    private static boolean usable(Result r) {
        return r.lost() == 0 && r.note().isEmpty();
    }
}
