package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One measured run of one implementation in one scenario.
 *
 * @param msgs messages sent (published, scheduled, stored)
 * @param msgsPerS messages delivered per second of the measured window (for pub/sub: published
 *     messages per second, each reaching every subscriber); for memory scenarios the fill rate
 * @param p50Ms median latency in ms: end-to-end for queues, lateness (received minus due) for
 *     delays; 0 where nothing is delivered (memory scenarios)
 * @param early delay scenarios only: deliveries received before they were due
 * @param redisCpuUsPerMsg delay scenarios only: Redis server CPU (user + system) per message
 * @param bytesPerMsg memory scenarios only: growth of Redis {@code used_memory} per waiting message
 * @param atLeastOnce whether the implementation promises not to lose messages
 * @param note why a run was cut short, or empty
 * @param commands the Redis commands the measured run cost per message, or empty
 * @param producerSeconds delay load scenarios only: how long the producer took to send them all
 * @param serverShares scenarios on several servers only: each server's share of their Redis CPU
 * @param counts scenarios on Redis with a measured window: script calls, commands and round trips per message
 * @param run which of the benchmark's runs this is, from 1
 */
record Result(
        String scenario,
        String impl,
        long msgs,
        double msgsPerS,
        double p50Ms,
        double p99Ms,
        double maxMs,
        long dupes,
        long lost,
        OptionalLong early,
        OptionalDouble redisCpuUsPerMsg,
        OptionalDouble bytesPerMsg,
        boolean atLeastOnce,
        String note,
        String commands,
        OptionalDouble producerSeconds,
        List<Double> serverShares,
        Optional<Counts> counts,
        int run) {

    Result {
        serverShares = List.copyOf(serverShares);
        if (run < 1) {
            throw new IllegalArgumentException("runs count from 1: " + run);
        }
    }

    Result(
            String scenario,
            String impl,
            long msgs,
            double msgsPerS,
            double p50Ms,
            double p99Ms,
            double maxMs,
            long dupes,
            long lost,
            OptionalLong early,
            OptionalDouble redisCpuUsPerMsg,
            OptionalDouble bytesPerMsg,
            boolean atLeastOnce,
            String note,
            String commands) {
        this(
                scenario,
                impl,
                msgs,
                msgsPerS,
                p50Ms,
                p99Ms,
                maxMs,
                dupes,
                lost,
                early,
                redisCpuUsPerMsg,
                bytesPerMsg,
                atLeastOnce,
                note,
                commands,
                OptionalDouble.empty(),
                List.of(),
                Optional.empty(),
                1);
    }

    /**
     * A row of a run that delivers nothing to time (an idle run, one of script costs, a peer that
     * could not run): no rate, latency or Redis CPU.
     */
    static Result undelivered(String scenario, String impl, long msgs, String note, String commands) {
        return new Result(
                scenario,
                impl,
                msgs,
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
                note,
                commands);
    }

    /** The result's line in results.txt. */
    String line() {
        StringBuilder sb = new StringBuilder();
        sb.append("BENCH scenario=")
                .append(scenario)
                .append(" impl=")
                .append(impl)
                .append(" run=")
                .append(run)
                .append(" msgs=")
                .append(msgs);
        counts.ifPresent(c -> sb.append(" scripts_per_msg=")
                .append(fmt("%.2f", c.scriptCalls()))
                .append(" commands_per_msg=")
                .append(fmt("%.2f", c.commands()))
                .append(" round_trips_per_msg=")
                .append(fmt("%.2f", c.roundTrips())));
        sb.append(" msgs_per_s=")
                .append(fmt("%.0f", msgsPerS))
                .append(" p50_ms=")
                .append(fmt("%.3f", p50Ms))
                .append(" p99_ms=")
                .append(fmt("%.3f", p99Ms))
                .append(" max_ms=")
                .append(fmt("%.3f", maxMs))
                .append(" dupes=")
                .append(dupes)
                .append(" lost=")
                .append(lost);
        early.ifPresent(e -> sb.append(" early=").append(e));
        redisCpuUsPerMsg.ifPresent(c -> sb.append(" redis_cpu_us_per_msg=").append(fmt("%.2f", c)));
        bytesPerMsg.ifPresent(b -> sb.append(" bytes_per_msg=").append(fmt("%.1f", b)));
        producerSeconds.ifPresent(p -> sb.append(" producer_s=").append(fmt("%.2f", p)));
        if (!serverShares.isEmpty()) {
            List<String> shares = new ArrayList<>();
            serverShares.forEach(x -> shares.add(fmt("%.3f", x)));
            sb.append(" server_cpu_shares=").append(String.join("/", shares));
        }
        return sb.toString();
    }

    Result withCommands(String c) {
        return with(c, producerSeconds, serverShares, counts, run);
    }

    /** This result with the counts and commands of its measured run. */
    Result withCosts(RedisProbe.Costs costs) {
        return with(costs.commands(), producerSeconds, serverShares, Optional.of(costs.counts()), run);
    }

    /** This result as the given run's. */
    Result inRun(int n) {
        return with(commands, producerSeconds, serverShares, counts, n);
    }

    Result withProducerSeconds(double seconds) {
        return with(commands, OptionalDouble.of(seconds), serverShares, counts, run);
    }

    /** This result with each server's share of the Redis CPU, in the deployment's order. */
    Result withServerShares(double[] shares) {
        List<Double> list = new ArrayList<>();
        for (double x : shares) {
            list.add(x);
        }
        return with(commands, producerSeconds, list, counts, run);
    }

    /** A copy with the fields added after a run was measured replaced; the measured ones kept. */
    private Result with(
            String commands,
            OptionalDouble producerSeconds,
            List<Double> serverShares,
            Optional<Counts> counts,
            int run) {
        return new Result(
                scenario,
                impl,
                msgs,
                msgsPerS,
                p50Ms,
                p99Ms,
                maxMs,
                dupes,
                lost,
                early,
                redisCpuUsPerMsg,
                bytesPerMsg,
                atLeastOnce,
                note,
                commands,
                producerSeconds,
                serverShares,
                counts,
                run);
    }

    static String fmt(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }
}
