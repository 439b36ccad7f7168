package io.queuekit.bench;

/**
 * Where a work-queue run's queue lives, and how its Redis work is read: the benchmark's one
 * server, or the masters of a cluster. Closing it cleans up after the run.
 */
interface Deployment extends AutoCloseable {
    /** The queue under test, closed by the scenario. */
    QueueUnderTest queue();

    /** Calls and microseconds per command, summed over the servers (see {@link RedisProbe#commandStats()}). */
    RedisProbe.Snapshot commandStats();

    /** CPU microseconds used so far by each server, in a fixed order. */
    long[] cpuMicros();

    /** CPU microseconds each server used between two {@link #cpuMicros()} readings, less its idle use. */
    double[] cpuSince(long[] before, long elapsedNanos);

    @Override
    void close();

    /** The benchmark's one server, shared by every scenario: flushed after the run. */
    static Deployment single(String impl, Context ctx, String name) {
        QueueUnderTest q = Impls.queue(impl, ctx.uri(), name);
        return new Deployment() {
            @Override
            public QueueUnderTest queue() {
                return q;
            }

            @Override
            public RedisProbe.Snapshot commandStats() {
                return ctx.probe().commandStats();
            }

            @Override
            public long[] cpuMicros() {
                return new long[] {ctx.probe().cpuMicros()};
            }

            @Override
            public double[] cpuSince(long[] before, long elapsedNanos) {
                return new double[] {ctx.cpuSince(before[0], elapsedNanos)};
            }

            @Override
            public void close() {
                ctx.probe().flushAll();
            }
        };
    }
}
