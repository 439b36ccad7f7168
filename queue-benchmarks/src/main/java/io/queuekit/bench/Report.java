package io.queuekit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Formats results.txt: a header, the counts per message, the rates and latencies (each cell the
 * range over the runs), one BENCH line per result, the targets judged over the runs, the retired
 * targets, the commands, and warnings.
 */
final class Report {
    private static final String[] COUNTS_HEAD = {
        "scenario", "impl", "scripts/msg", "commands/msg", "round trips/msg", "Redis CPU us/msg"
    };
    private static final String[] RATES_HEAD = {
        "scenario",
        "impl",
        "msgs",
        "msgs/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "dupes",
        "lost",
        "early",
        "bytes/msg",
        "note"
    };
    private static final List<Function<Result, OptionalDouble>> COUNTED = List.of(
            r -> r.counts().map(c -> OptionalDouble.of(c.scriptCalls())).orElse(OptionalDouble.empty()),
            r -> r.counts().map(c -> OptionalDouble.of(c.commands())).orElse(OptionalDouble.empty()),
            r -> r.counts().map(c -> OptionalDouble.of(c.roundTrips())).orElse(OptionalDouble.empty()),
            Result::redisCpuUsPerMsg);

    private Report() {}

    static String render(
            String header, List<Scenario> scenarios, List<Result> results, List<List<Check>> checks, int runs) {
        StringBuilder sb = new StringBuilder();
        sb.append(header).append("\n\n");
        for (Scenario s : scenarios) {
            sb.append(String.format("  %-17s %s%n", s.name(), s.summary()));
        }
        Map<String, List<Result>> rows = byRow(results);
        String over = runs == 1 ? "one run" : "lowest..highest over " + runs + " runs";
        sb.append("\nCounts per message (")
                .append(over)
                .append("): script calls (EVAL, EVALSHA, FCALL), Redis")
                .append(" commands (those scripts run included), round trips (reads of client sockets, INFO's")
                .append(" total_reads_processed), the probe's own calls left out; then Redis CPU (less the idle")
                .append(" server's):\n");
        sb.append(countsTable(rows));
        if (runs > 1) {
            sb.append(spread(rows)).append('\n');
        }
        sb.append("\nRates and latency (").append(over).append("):\n");
        sb.append(ratesTable(rows)).append('\n');
        results.forEach(r -> sb.append(r.line()).append('\n'));
        sb.append("\nTargets, each judged on every run: PASS only if every run met it, n/a if a row it needs is")
                .append(" missing; ranges lowest to highest:\n");
        Check.verdicts(checks).forEach(v -> sb.append(v).append('\n'));
        sb.append("\nRETIRED (no longer judged):\n");
        Targets.RETIRED.forEach(t -> sb.append("  ")
                .append(t.target())
                .append(": ")
                .append(t.reason())
                .append('\n'));
        if (results.stream().anyMatch(r -> !r.commands().isEmpty())) {
            sb.append("\nRedis commands per message in the measured run, most called first, with server time"
                    + " (INFO commandstats; commands run inside scripts included):\n");
            for (Result r : results) {
                if (!r.commands().isEmpty()) {
                    sb.append(
                            String.format("  %-17s %-23s run %d: %s%n", r.scenario(), r.impl(), r.run(), r.commands()));
                }
            }
        }
        List<String> warnings = warnings(results);
        if (!warnings.isEmpty()) {
            sb.append('\n');
            warnings.forEach(w -> sb.append(w).append('\n'));
        }
        return sb.toString();
    }

    /** Loud lines for every run that lost or duplicated messages or was cut short. */
    static List<String> warnings(List<Result> results) {
        List<String> out = new ArrayList<>();
        for (Result r : results) {
            String who = r.scenario() + " " + r.impl() + " (run " + r.run() + ")";
            if (r.note().startsWith(Bench.FAILED)) {
                out.add("!!! " + who + " " + r.note());
            } else if (r.atLeastOnce() && (r.lost() > 0 || r.dupes() > 0)) {
                out.add("!!! BROKEN PROMISE: " + who + " is at-least-once but lost " + r.lost() + " and duplicated "
                        + r.dupes() + " message(s)" + (r.note().isEmpty() ? "" : " (" + r.note() + ")"));
            } else if (r.lost() > 0) {
                out.add("!!! LOST: " + who + " did not deliver " + r.lost() + " message(s)"
                        + (r.note().isEmpty() ? "" : " (" + r.note() + ")"));
            } else if (r.dupes() > 0) {
                out.add("!!! DUPLICATES: " + who + " delivered " + r.dupes() + " message(s) more than once");
            } else if (r.note().startsWith(BullmqPeer.NOT_AVAILABLE + ":")) {
                out.add("--- " + who + " " + r.note());
            } else if (!r.note().isEmpty()) {
                out.add("!!! CUT SHORT: " + who + ": " + r.note());
            }
        }
        return out;
    }

    /** The results of each scenario and implementation, over the runs, in the order first met. */
    static Map<String, List<Result>> byRow(List<Result> results) {
        Map<String, List<Result>> rows = new LinkedHashMap<>();
        for (Result r : results) {
            rows.computeIfAbsent(r.scenario() + " " + r.impl(), k -> new ArrayList<>())
                    .add(r);
        }
        return rows;
    }

    static String countsTable(Map<String, List<Result>> rows) {
        List<String[]> table = new ArrayList<>();
        table.add(COUNTS_HEAD);
        for (List<Result> row : rows.values()) {
            if (row.stream()
                    .noneMatch(
                            r -> r.counts().isPresent() || r.redisCpuUsPerMsg().isPresent())) {
                continue;
            }
            table.add(new String[] {
                row.get(0).scenario(),
                row.get(0).impl(),
                range(row, COUNTED.get(0), "%.2f"),
                range(row, COUNTED.get(1), "%.2f"),
                range(row, COUNTED.get(2), "%.2f"),
                range(row, COUNTED.get(3), "%.2f")
            });
        }
        return layout(table, 2);
    }

    static String ratesTable(Map<String, List<Result>> rows) {
        List<String[]> table = new ArrayList<>();
        table.add(RATES_HEAD);
        for (List<Result> row : rows.values()) {
            Result first = row.get(0);
            List<String> notes = new ArrayList<>();
            for (Result r : row) {
                if (!r.note().isEmpty()) {
                    notes.add(row.size() == 1 ? r.note() : "run " + r.run() + ": " + r.note());
                }
            }
            table.add(new String[] {
                first.scenario(),
                first.impl(),
                range(row, r -> OptionalDouble.of((double) r.msgs()), "%.0f"),
                range(row, r -> OptionalDouble.of(r.msgsPerS()), "%.0f"),
                range(row, r -> OptionalDouble.of(r.p50Ms()), "%.3f"),
                range(row, r -> OptionalDouble.of(r.p99Ms()), "%.3f"),
                range(row, r -> OptionalDouble.of(r.maxMs()), "%.3f"),
                range(row, r -> OptionalDouble.of((double) r.dupes()), "%.0f"),
                range(row, r -> OptionalDouble.of((double) r.lost()), "%.0f"),
                range(
                        row,
                        r -> r.early().isPresent()
                                ? OptionalDouble.of((double) r.early().getAsLong())
                                : OptionalDouble.empty(),
                        "%.0f"),
                range(row, Result::bytesPerMsg, "%.1f"),
                String.join("; ", notes)
            });
        }
        return layout(table, 2);
    }

    /** {@code lo..hi} of a figure over a row's runs, one figure when they print the same, {@code -} if none. */
    static String range(List<Result> row, Function<Result, OptionalDouble> f, String format) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Result r : row) {
            OptionalDouble v = f.apply(r);
            if (v.isPresent()) {
                lo = Math.min(lo, v.getAsDouble());
                hi = Math.max(hi, v.getAsDouble());
            }
        }
        if (lo > hi) {
            return "-";
        }
        String a = Result.fmt(format, lo);
        String b = Result.fmt(format, hi);
        return a.equals(b) ? a : a + ".." + b;
    }

    /** Figures below this per message (an ack script now and then) are left out of the spread. */
    private static final double SPREAD_FLOOR = 0.05;

    /**
     * How far each counted figure moved between the runs of a row (highest over lowest, less 1),
     * the median and the largest over the rows: the counts should barely move, the CPU does.
     */
    static String spread(Map<String, List<Result>> rows) {
        String[] names = {"script calls", "commands", "round trips", "Redis CPU"};
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            List<Double> spreads = new ArrayList<>();
            for (List<Result> row : rows.values()) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                int n = 0;
                for (Result r : row) {
                    OptionalDouble v = COUNTED.get(i).apply(r);
                    if (v.isPresent()) {
                        lo = Math.min(lo, v.getAsDouble());
                        hi = Math.max(hi, v.getAsDouble());
                        n++;
                    }
                }
                if (n > 1 && lo >= SPREAD_FLOOR) {
                    spreads.add(hi / lo - 1);
                }
            }
            if (spreads.isEmpty()) {
                continue;
            }
            spreads.sort(null);
            parts.add(String.format(
                    Locale.ROOT,
                    "%s %.1f%% and %.1f%%",
                    names[i],
                    100 * spreads.get(spreads.size() / 2),
                    100 * spreads.get(spreads.size() - 1)));
        }
        return "spread over the runs (highest / lowest - 1), median and largest over the rows, figures under "
                + SPREAD_FLOOR + " a message left out: "
                + (parts.isEmpty() ? "none measured twice" : String.join(", ", parts));
    }

    /** Columns padded to their widest cell; the first {@code text} columns and the last left-aligned. */
    private static String layout(List<String[]> rows, int text) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        boolean noteLast = rows.get(0)[columns - 1].equals("note");
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                boolean left = i < text || (noteLast && i == columns - 1);
                String spaces = " ".repeat(width[i] - row[i].length());
                line.append(left ? row[i] + spaces : spaces + row[i]).append(i == columns - 1 ? "" : "  ");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    static void write(Path file, String text) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
