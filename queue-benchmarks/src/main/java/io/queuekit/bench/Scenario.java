package io.queuekit.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** One scenario of the benchmark, run once for each implementation it compares. */
abstract class Scenario {
    private final String name;
    private final String summary;
    private final List<String> impls;

    Scenario(String name, String summary, List<String> impls) {
        this.name = name;
        this.summary = summary;
        this.impls = List.copyOf(impls);
    }

    final String name() {
        return name;
    }

    /** One line saying what is measured. */
    final String summary() {
        return summary;
    }

    final List<String> impls() {
        return impls;
    }

    /**
     * A warm-up run (unless turned off) and one measured run of {@code impl}, each on fresh keys,
     * with the server flushed after each.
     */
    abstract Result run(String impl, Context ctx) throws Exception;

    /**
     * The result of a run whose receipts {@code t} counted: throughput over the window from
     * {@code startNanos} ({@code System.nanoTime()}) to the last receipt.
     */
    final Result result(
            String impl,
            int msgs,
            Tracker t,
            int receivers,
            long startNanos,
            OptionalLong early,
            OptionalDouble cpu,
            String note) {
        double seconds = Math.max(1e-9, (t.lastNanos() - startNanos) / 1e9);
        double perS = t.receipts() == 0 ? 0 : t.distinct() / (double) receivers / seconds;
        double[] p = t.percentilesMillis();
        return new Result(
                name,
                impl,
                msgs,
                perS,
                p[0],
                p[1],
                p[2],
                t.dupes(),
                t.lost(),
                early,
                cpu,
                OptionalDouble.empty(),
                Impls.atLeastOnce(impl),
                note,
                "");
    }

    /** Why a run ended before every message arrived, or empty if it did not. */
    static String incomplete(Tracker t, boolean complete, long deadlineNanos) {
        if (complete) {
            return "";
        }
        String why = System.nanoTime() - deadlineNanos > 0 ? "time limit reached" : "nothing more arrived";
        return why + " with " + t.distinct() + " of " + t.expected() + " received";
    }
}
