package io.queuekit.bench;

import io.queuekit.testing.RedisServer;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The side-by-side benchmark of issue 6: starts its own Redis server (no persistence), runs every
 * scenario for queuekit's transports and for the peers against it, as many times as asked with the
 * implementations in a rotated order, and writes {@code queue-benchmarks/target/results.txt}: the
 * counts per message and the rates as ranges over the runs, one {@code BENCH} line per result, and
 * the targets as ratios within each run, PASS only if every run met them.
 *
 * <p>Exit status: 0 when done, 1 if a queuekit transport that promises at-least-once lost or
 * duplicated a message or failed, 2 for bad options.
 */
public final class Bench {
    static final String FAILED = "FAILED";

    private Bench() {}

    public static void main(String[] args) throws Exception {
        BenchConfig config;
        try {
            config = BenchConfig.parse(args, defaultOut());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (config == null) {
            System.out.println(BenchConfig.USAGE);
            return;
        }
        List<Result> results = run(config, System.out);
        boolean broken = results.stream()
                .anyMatch(r -> r.atLeastOnce()
                        && (r.lost() > 0 || r.dupes() > 0 || r.note().startsWith(FAILED)));
        System.exit(broken ? 1 : 0);
    }

    /** Runs the configured scenarios, writes the results file, and returns the results. */
    static List<Result> run(BenchConfig config, PrintStream log) throws Exception {
        List<Scenario> scenarios =
                Scenarios.all().stream().filter(s -> config.runs(s.name())).toList();
        List<Result> results = new ArrayList<>();
        List<List<Check>> checks = new ArrayList<>();
        long began = System.nanoTime();
        long[] cpuAtStart = cpuTicks();
        String header;
        try (RedisServer redis = RedisServer.builder()
                        .requireProcessControl()
                        .appendOnly(false)
                        .start();
                RedisProbe probe = new RedisProbe(redis.uri())) {
            int cpus = Runtime.getRuntime().availableProcessors(); // before pinning narrows what this JVM sees
            Pinning pinning = config.pin() ? Pinning.apply(probe.pid()) : Pinning.off("not asked for");
            double idle = idleCpu(probe);
            header = String.format(
                    "queuekit benchmark %s, Redis %s (%s, no persistence, idle CPU %.0f us/s),"
                            + " %d CPUs, Java %s, scale %s, %d run%s (implementations in a rotated order), %s,"
                            + " load average %s at start",
                    LocalDateTime.now(ZoneId.systemDefault())
                            .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                            .substring(0, 19),
                    probe.version(),
                    redis.source(),
                    idle,
                    cpus,
                    System.getProperty("java.version"),
                    config.scale(),
                    config.runCount(),
                    config.runCount() == 1 ? "" : "s",
                    pinning.describe(),
                    loadAverage());
            log.println(header);
            Context ctx = new Context(config, redis.uri(), probe, idle, pinning);
            for (int run = 1; run <= config.runCount(); run++) {
                List<Result> ofRun = new ArrayList<>();
                for (Scenario s : scenarios) {
                    log.println("== " + (config.runCount() == 1 ? "" : "run " + run + ", ") + s.name() + ": "
                            + s.summary());
                    List<String> impls =
                            s.impls().stream().filter(config::runsImpl).toList();
                    for (String impl : rotated(impls, run - 1)) {
                        ofRun.add(runAndLog(s, impl, ctx, run, log));
                    }
                }
                results.addAll(ofRun);
                checks.add(Targets.evaluate(ofRun));
            }
        }
        String report = Report.render(
                header
                        + String.format(
                                " and %s at end, took %.0f s, %s",
                                loadAverage(), (System.nanoTime() - began) / 1e9, stolen(cpuAtStart, cpuTicks())),
                scenarios,
                results,
                checks,
                config.runCount());
        Report.write(config.out(), report);
        log.println();
        log.print(report);
        log.println("results written to " + config.out());
        log.flush();
        return results;
    }

    /**
     * The implementations of a scenario in the order run {@code by} (from 0) runs them: rotated by
     * {@code by}, so that none is always first, or always right after the same one.
     */
    static List<String> rotated(List<String> impls, int by) {
        List<String> out = new ArrayList<>(impls);
        if (!out.isEmpty()) {
            Collections.rotate(out, -(by % out.size()));
        }
        return out;
    }

    private static Result runAndLog(Scenario s, String impl, Context ctx, int run, PrintStream log) {
        long t0 = System.nanoTime();
        long[] ticks = cpuTicks();
        long jvm0 = jvmCpuNanos();
        Result r = runOne(s, impl, ctx).inRun(run);
        log.printf(
                "   %-24s %s  (%.1f s, %s, JVM CPU %.1f us/msg with the warm-up)%n",
                impl,
                r.line().substring(r.line().indexOf("msgs=")),
                (System.nanoTime() - t0) / 1e9,
                stolen(ticks, cpuTicks()),
                (jvmCpuNanos() - jvm0) / 1e3 / Math.max(1, r.msgs()));
        Report.warnings(List.of(r)).forEach(log::println);
        log.flush();
        return r;
    }

    /** The machine's load average over the last minute, to judge how much else was running. */
    private static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load);
    }

    /**
     * The machine's CPU time so far, in clock ticks, from the {@code cpu} line of Linux's
     * {@code /proc/stat}: all of it, and what the hypervisor gave to other guests while this one
     * wanted to run (steal); null where there is no such file.
     */
    static long[] cpuTicks() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (line.startsWith("cpu ")) {
                    String[] f = line.trim().split("\\s+", -1);
                    long total = 0;
                    for (int i = 1; i < f.length && i <= 8; i++) { // user .. steal; guest time is in user
                        total += Long.parseLong(f[i]);
                    }
                    return new long[] {total, f.length > 8 ? Long.parseLong(f[8]) : 0};
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a format this does not know
        }
        return null;
    }

    /**
     * The share of the machine's CPU time the hypervisor gave to others between two readings:
     * a virtual machine's neighbours slow every run down, and unevenly, so that figures of runs on
     * the same machine differ; {@code "CPU steal 12%"}, or {@code "CPU steal unknown"}.
     */
    static String stolen(long[] before, long[] after) {
        if (before == null || after == null || after[0] <= before[0]) {
            return "CPU steal unknown";
        }
        return String.format(Locale.ROOT, "CPU steal %.0f%%", 100.0 * (after[1] - before[1]) / (after[0] - before[0]));
    }

    /** This JVM's CPU time so far (every thread: the warm-up run's too), or 0 if unknown. */
    private static long jvmCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime())
                : 0;
    }

    /** The idle server's CPU use per second, over one second. */
    private static double idleCpu(RedisProbe probe) throws InterruptedException {
        long before = probe.cpuMicros();
        long t0 = System.nanoTime();
        Thread.sleep(1_000);
        return (probe.cpuMicros() - before) / ((System.nanoTime() - t0) / 1e9);
    }

    private static Result runOne(Scenario s, String impl, Context ctx) {
        try {
            return s.run(impl, ctx);
        } catch (Exception | LinkageError e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.err.println("bench " + s.name() + " " + impl + " failed:");
            e.printStackTrace();
            try {
                ctx.probe().flushAll();
            } catch (RuntimeException ignored) {
                // the next run reports the server's state itself
            }
            return new Result(
                    s.name(),
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
                    FAILED + ": " + e,
                    "");
        }
    }

    /** target/results.txt next to this class's jar or classes directory, else under the working directory. */
    static Path defaultOut() {
        try {
            Path here = Path.of(Bench.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path target = here.getParent();
            if (target != null
                    && target.getFileName() != null
                    && target.getFileName().toString().equals("target")) {
                return target.resolve("results.txt");
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        return Path.of("queue-benchmarks", "target", "results.txt");
    }
}
