package io.queuekit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * One target judged on one run: its outcome and what was measured, as a text with a {@code {}}
 * for each figure, so that the runs' figures can be given as ranges in the same text.
 *
 * @param figures in the order of the text's {@code {}}; empty when nothing was measured
 */
record Check(String target, Outcome outcome, String text, List<Figure> figures) {

    enum Outcome {
        PASS,
        MISS,
        /** A row the target needs is missing or failed on the peer's side: not judged. */
        NA,
        /** A figure reported without a target. */
        INFO
    }

    /** A measured figure and how to print it. */
    record Figure(double value, DoubleFunction<String> format) {
        /** A ratio: {@code 0.85x}, {@code 12.3x}, {@code inf}. */
        static Figure ratio(double x) {
            return new Figure(x, v -> Double.isInfinite(v) ? "inf" : Result.fmt(v >= 10 ? "%.1fx" : "%.2fx", v));
        }

        static Figure of(double x, String format) {
            return new Figure(x, v -> Result.fmt(format, v));
        }

        String formatted() {
            return format.apply(value);
        }
    }

    Check {
        figures = List.copyOf(figures);
    }

    /** A target a missing or failed row leaves unjudged, and why. */
    static Check notMeasured(String target, String why) {
        return new Check(target, Outcome.NA, why, List.of());
    }

    /** The same figures reported without a target. */
    Check asInfo() {
        return new Check(target, Outcome.INFO, text, figures);
    }

    /** The text with this run's figures. */
    String measured() {
        return fill(text, figures.stream().map(Figure::formatted).toList());
    }

    /** Each figure's lowest to highest over the checks that measured it. */
    static String range(List<Check> runs) {
        List<Check> measured = runs.stream().filter(c -> !c.figures().isEmpty()).toList();
        if (measured.isEmpty()) {
            return runs.isEmpty() ? "not measured" : runs.get(0).text();
        }
        Check first = measured.get(0);
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < first.figures().size(); i++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (Check c : measured) {
                if (c.figures().size() == first.figures().size()) {
                    double v = c.figures().get(i).value();
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            DoubleFunction<String> f = first.figures().get(i).format();
            String a = f.apply(lo);
            String b = f.apply(hi);
            cells.add(a.equals(b) ? a : a + " to " + b);
        }
        return fill(first.text(), cells);
    }

    /**
     * The verdict over several runs of one target: PASS only if every run met it, MISS if one
     * missed, else n/a if one could not be judged; each figure as its range.
     */
    static String verdict(List<Check> runs) {
        Check first = runs.get(0);
        List<Integer> missed = new ArrayList<>();
        List<Integer> unjudged = new ArrayList<>();
        boolean info = true;
        for (int i = 0; i < runs.size(); i++) {
            Outcome o = runs.get(i).outcome();
            info &= o == Outcome.INFO;
            if (o == Outcome.MISS) {
                missed.add(i + 1);
            } else if (o == Outcome.NA) {
                unjudged.add(i + 1);
            }
        }
        Outcome overall = info
                ? Outcome.INFO
                : !missed.isEmpty() ? Outcome.MISS : !unjudged.isEmpty() ? Outcome.NA : Outcome.PASS;
        StringBuilder sb = new StringBuilder("TARGET ")
                .append(label(overall))
                .append("  ")
                .append(first.target())
                .append(": ")
                .append(range(runs));
        long measured = runs.stream().filter(c -> !c.figures().isEmpty()).count();
        if (runs.size() > 1 && measured > 0) {
            sb.append(
                    measured == runs.size()
                            ? " over " + runs.size() + " runs"
                            : " over " + measured + " of " + runs.size() + " runs");
        }
        if (!missed.isEmpty() && missed.size() < runs.size()) {
            sb.append("; missed in run ").append(join(missed));
        }
        if (!unjudged.isEmpty() && unjudged.size() < runs.size()) {
            Check why = runs.get(unjudged.get(0) - 1);
            sb.append("; n/a in run ")
                    .append(join(unjudged))
                    .append(" (")
                    .append(why.text())
                    .append(')');
        }
        return sb.toString();
    }

    /** One verdict line per target, in the order of the first run, from each run's checks. */
    static List<String> verdicts(List<List<Check>> runs) {
        Map<String, List<Check>> byTarget = new LinkedHashMap<>();
        for (List<Check> run : runs) {
            for (Check c : run) {
                byTarget.computeIfAbsent(c.target(), k -> new ArrayList<>()).add(c);
            }
        }
        return byTarget.values().stream().map(Check::verdict).toList();
    }

    private static String label(Outcome o) {
        return switch (o) {
            case PASS -> "PASS";
            case MISS -> "MISS";
            case NA -> "n/a ";
            case INFO -> "info";
        };
    }

    private static String join(List<Integer> runs) {
        List<String> s = runs.stream().map(String::valueOf).toList();
        return String.join(", ", s);
    }

    private static String fill(String text, List<String> values) {
        StringBuilder sb = new StringBuilder();
        int from = 0;
        for (String v : values) {
            int at = text.indexOf("{}", from);
            if (at < 0) {
                break;
            }
            sb.append(text, from, at).append(v);
            from = at + 2;
        }
        return sb.append(text.substring(from)).toString();
    }
}
