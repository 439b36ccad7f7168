package io.queuekit.bench;

import java.util.concurrent.atomic.AtomicInteger;

/** What every scenario run needs: the settings and the server. */
final class Context {
    private final BenchConfig config;
    private final String uri;
    private final RedisProbe probe;
    private final AtomicInteger sequence = new AtomicInteger();
    private final double idleCpuMicrosPerSecond;
    private final Pinning pinning;

    /**
     * @param idleCpuMicrosPerSecond the server's own CPU use while no client works (its timers),
     *     subtracted from CPU measurements so they show what the implementations cost
     * @param pinning how servers started during the run are to be pinned
     */
    Context(BenchConfig config, String uri, RedisProbe probe, double idleCpuMicrosPerSecond, Pinning pinning) {
        this.config = config;
        this.uri = uri;
        this.probe = probe;
        this.idleCpuMicrosPerSecond = idleCpuMicrosPerSecond;
        this.pinning = pinning;
    }

    /** Server CPU micros used since {@code before} (from {@link RedisProbe#cpuMicros()}), less idle use. */
    double cpuSince(long before, long elapsedNanos) {
        double used = probe.cpuMicros() - before - idleCpuMicrosPerSecond * elapsedNanos / 1e9;
        return Math.max(0, used);
    }

    BenchConfig config() {
        return config;
    }

    String uri() {
        return uri;
    }

    RedisProbe probe() {
        return probe;
    }

    Pinning pinning() {
        return pinning;
    }

    /** A queue or channel name used by nothing before in this run. */
    String freshName(String scenario) {
        return "bench-" + scenario + "-" + sequence.incrementAndGet();
    }

    /** The end of a measured run starting now, as {@code System.nanoTime()}. */
    long deadlineNanos() {
        return System.nanoTime() + config.limitSeconds() * 1_000_000_000L;
    }
}
