package io.queuekit.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What to run and how big: from command-line options, falling back to system properties
 * ({@code -Dbench.scale=0.1}, {@code -Dbench.scenario=...}, {@code -Dbench.impl=...}).
 *
 * @param scale multiplies every message count (1 = the counts of the issue)
 * @param timeScale multiplies delay windows and send intervals (1 = as specified); for smoke tests
 * @param scenarios scenario names to run; empty means all
 * @param impls implementation names to run; empty means all
 * @param warmup whether each implementation gets a warm-up run before its measured run
 * @param limitSeconds longest measured run of one implementation in one scenario
 * @param out where results.txt goes
 * @param bullmqDir where BullMQ's script is ({@code --bullmq-dir}), or null to look for it
 * @param runCount how many times every scenario runs, the implementations in a rotated order each time
 * @param pin whether to pin Redis to one core and this JVM to the others, where the machine allows
 */
record BenchConfig(
        double scale,
        double timeScale,
        Set<String> scenarios,
        Set<String> impls,
        boolean warmup,
        int limitSeconds,
        Path out,
        Path bullmqDir,
        int runCount,
        boolean pin) {
    /** Runs of the full benchmark unless {@code --runs} says otherwise. */
    static final int RUNS = 3;

    private static final Set<String> FLAGS = Set.of("--help", "-h", "--no-warmup", "--pin", "--no-pin");

    static final String USAGE = String.join(
            "\n",
            "usage: java -jar queue-benchmarks/target/queuekit-benchmarks.jar [options]",
            "  --scale X          multiply message counts by X (default 1; property bench.scale)",
            "  --scenario A,B     run only these scenarios (property bench.scenario):",
            "                     " + String.join(", ", Scenarios.NAMES),
            "  --impl A,B         run only these implementations (property bench.impl):",
            "                     " + String.join(", ", Impls.NAMES.subList(0, 6)),
            "                     " + String.join(", ", Impls.NAMES.subList(6, 10)),
            "                     " + String.join(", ", Impls.NAMES.subList(10, Impls.NAMES.size())),
            "  --no-warmup        skip the warm-up run before each measured run (property bench.nowarmup=true)",
            "  --limit SECONDS    time limit of one measured run (default 120; property bench.limit)",
            "  --runs N           run every scenario N times, the implementations in a rotated order each",
            "                     time; the summary gives ranges (default " + RUNS + "; property bench.runs)",
            "  --pin, --no-pin    Redis on one core, this JVM and its child processes on the others, where",
            "                     there are 2 cores or more and taskset (default on; property bench.pin)",
            "  --out FILE         results file (default queue-benchmarks/target/results.txt)",
            "  --bullmq-dir DIR   where bench.mjs of the bullmq peer is (default queue-benchmarks/bullmq, found from",
            "                     the working directory or the jar); bullmq needs node on PATH, else its rows say n/a",
            "  --help             this text");

    BenchConfig {
        if (!(scale > 0) || scale > 100) {
            throw new IllegalArgumentException("scale must be above 0 and at most 100: " + scale);
        }
        if (!(timeScale > 0) || timeScale > 1) {
            throw new IllegalArgumentException("time scale must be above 0 and at most 1: " + timeScale);
        }
        if (limitSeconds < 1) {
            throw new IllegalArgumentException("time limit must be at least 1 s: " + limitSeconds);
        }
        if (runCount < 1 || runCount > 100) {
            throw new IllegalArgumentException("runs must be 1 to 100: " + runCount);
        }
        for (String s : scenarios) {
            if (!Scenarios.NAMES.contains(s)) {
                throw new IllegalArgumentException("unknown scenario '" + s + "'; known: " + Scenarios.NAMES);
            }
        }
        for (String i : impls) {
            if (!Impls.NAMES.contains(i)) {
                throw new IllegalArgumentException("unknown implementation '" + i + "'; known: " + Impls.NAMES);
            }
        }
        scenarios = Set.copyOf(scenarios);
        impls = Set.copyOf(impls);
    }

    /** One run, no pinning, BullMQ's script looked for where it usually is: for tests. */
    BenchConfig(
            double scale,
            double timeScale,
            Set<String> scenarios,
            Set<String> impls,
            boolean warmup,
            int limitSeconds,
            Path out) {
        this(scale, timeScale, scenarios, impls, warmup, limitSeconds, out, null, 1, false);
    }

    /** Parses options; {@code null} for {@code --help}. */
    static BenchConfig parse(String[] args, Path defaultOut) {
        double scale = Double.parseDouble(System.getProperty("bench.scale", "1"));
        Set<String> scenarios = list(System.getProperty("bench.scenario", ""));
        Set<String> impls = list(System.getProperty("bench.impl", ""));
        int limit = Integer.parseInt(System.getProperty("bench.limit", "120"));
        boolean warmup = !Boolean.getBoolean("bench.nowarmup");
        int runs = Integer.parseInt(System.getProperty("bench.runs", Integer.toString(RUNS)));
        boolean pin = Boolean.parseBoolean(System.getProperty("bench.pin", "true"));
        Path out = defaultOut;
        Path bullmqDir = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            String key = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (value != null && FLAGS.contains(key)) {
                throw new IllegalArgumentException(key + " takes no value: '" + a + "'");
            }
            switch (key) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--no-warmup" -> warmup = false;
                case "--pin" -> pin = true;
                case "--no-pin" -> pin = false;
                case "--scale", "--scenario", "--impl", "--limit", "--out", "--bullmq-dir", "--runs" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(key + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (key) {
                        case "--scale" -> scale = number(key, value);
                        case "--scenario" -> scenarios = list(value);
                        case "--impl" -> impls = list(value);
                        case "--limit" -> limit = (int) number(key, value);
                        case "--bullmq-dir" -> bullmqDir = Path.of(value);
                        case "--runs" -> runs = whole(key, value);
                        default -> out = Path.of(value);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
        }
        return new BenchConfig(scale, 1.0, scenarios, impls, warmup, limit, out, bullmqDir, runs, pin);
    }

    BenchConfig withTimeScale(double t) {
        return new BenchConfig(scale, t, scenarios, impls, warmup, limitSeconds, out, bullmqDir, runCount, pin);
    }

    boolean runs(String scenario) {
        return scenarios.isEmpty() || scenarios.contains(scenario);
    }

    boolean runsImpl(String impl) {
        return impls.isEmpty() || impls.contains(impl);
    }

    /** {@code base} messages scaled, at least {@code min}. */
    int count(int base, int min) {
        return (int) Math.max(min, Math.round(base * scale));
    }

    /** A duration in ms scaled by the time scale, at least 1. */
    long millis(long base) {
        return Math.max(1, Math.round(base * timeScale));
    }

    private static double number(String key, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " needs a number: '" + value + "'");
        }
    }

    private static int whole(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " needs a whole number: '" + value + "'");
        }
    }

    private static Set<String> list(String csv) {
        Set<String> out = new LinkedHashSet<>();
        Arrays.stream(csv.split(","))
                .map(s -> s.trim().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty())
                .forEach(out::add);
        return out;
    }
}
