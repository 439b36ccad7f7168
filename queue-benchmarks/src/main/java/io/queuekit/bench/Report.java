package io.queuekit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Formats results.txt: a header, the table, one BENCH line per result, the targets, and warnings. */
final class Report {
    private static final String[] HEAD = {
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
        "cpu us/msg",
        "bytes/msg",
        "note"
    };

    private Report() {}

    static String render(String header, List<Scenario> scenarios, List<Result> results, List<Targets.Check> checks) {
        StringBuilder sb = new StringBuilder();
        sb.append(header).append("\n\n");
        for (Scenario s : scenarios) {
            sb.append(String.format("  %-17s %s%n", s.name(), s.summary()));
        }
        sb.append('\n').append(table(results)).append('\n');
        results.forEach(r -> sb.append(r.line()).append('\n'));
        sb.append('\n');
        checks.forEach(c -> sb.append(c.line()).append('\n'));
        if (results.stream().anyMatch(r -> !r.commands().isEmpty())) {
            sb.append("\nRedis commands per message in the measured run, most called first, with server time"
                    + " (INFO commandstats; commands run inside scripts included):\n");
            for (Result r : results) {
                if (!r.commands().isEmpty()) {
                    sb.append(String.format("  %-17s %-23s %s%n", r.scenario(), r.impl(), r.commands()));
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
            String who = r.scenario() + " " + r.impl();
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

    static String table(List<Result> results) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEAD);
        for (Result r : results) {
            rows.add(new String[] {
                r.scenario(),
                r.impl(),
                Long.toString(r.msgs()),
                Result.fmt("%.0f", r.msgsPerS()),
                Result.fmt("%.3f", r.p50Ms()),
                Result.fmt("%.3f", r.p99Ms()),
                Result.fmt("%.3f", r.maxMs()),
                Long.toString(r.dupes()),
                Long.toString(r.lost()),
                r.early().isPresent() ? Long.toString(r.early().getAsLong()) : "-",
                r.redisCpuUsPerMsg().isPresent()
                        ? Result.fmt("%.2f", r.redisCpuUsPerMsg().getAsDouble())
                        : "-",
                r.bytesPerMsg().isPresent() ? Result.fmt("%.1f", r.bytesPerMsg().getAsDouble()) : "-",
                r.note()
            });
        }
        int[] width = new int[HEAD.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                boolean text = i < 2 || i == row.length - 1;
                String cell = text ? pad(row[i], width[i], false) : pad(row[i], width[i], true);
                line.append(cell).append(i == row.length - 1 ? "" : "  ");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String pad(String s, int width, boolean right) {
        String spaces = " ".repeat(width - s.length());
        return right ? spaces + s : s + spaces;
    }

    static void write(Path file, String text) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
