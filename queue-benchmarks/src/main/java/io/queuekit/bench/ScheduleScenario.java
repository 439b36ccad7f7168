package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import redis.clients.jedis.RedisClient;

/**
 * The producer alone: how fast one thread stores messages that each have a due time of their own
 * (at random over a window after it is sent) on the zset queue, by one {@code scheduleAt} per
 * message ({@link Impls#ZSET}) or by {@code scheduleEach} in batches ({@link Impls#ZSET_EACH}).
 * Nothing consumes, so the latency fields are 0; {@code msgs_per_s} is messages stored per second
 * of sending, and lost and dupes compare the count the queue reports stored with the count sent.
 */
final class ScheduleScenario extends Scenario {
    private static final long WINDOW_MILLIS = 5_000;

    private final int baseCount;
    private final int batch;

    /** @param batch messages per {@code scheduleEach} call */
    ScheduleScenario(String name, String summary, List<String> impls, int baseCount, int batch) {
        super(name, summary, impls);
        this.baseCount = baseCount;
        this.batch = batch;
    }

    @Override
    Result run(String impl, Context ctx) {
        int n = ctx.config().count(baseCount, 20);
        if (ctx.config().warmup()) {
            once(impl, ctx, Math.min(n, 2_000));
        }
        return once(impl, ctx, n);
    }

    private Result once(String impl, Context ctx, int n) {
        boolean each = impl.equals(Impls.ZSET_EACH);
        List<String> bodies = Body.all(n);
        Random random = new Random(42);
        long window = ctx.config().millis(WINDOW_MILLIS);
        long[] ahead = new long[n];
        for (int i = 0; i < n; i++) {
            ahead[i] = (long) (random.nextDouble() * window);
        }
        int sent = 0;
        long nanos;
        long stored;
        RedisProbe.Costs costs;
        try (RedisClient client = Clients.jedis(ctx.uri());
                RedisDelayQueue<String> q = RedisDelayQueue.builder(client, ctx.freshName(name()), Codec.utf8())
                        .build()) {
            RedisProbe.Snapshot before = ctx.probe().commandStats();
            long deadline = ctx.deadlineNanos();
            long start = System.nanoTime();
            if (each) {
                List<Scheduled<String>> group = new ArrayList<>(batch);
                while (sent < n && System.nanoTime() - deadline < 0) {
                    long now = System.currentTimeMillis();
                    int end = Math.min(n, sent + batch);
                    for (int i = sent; i < end; i++) {
                        group.add(Scheduled.at(bodies.get(i), Instant.ofEpochMilli(now + ahead[i])));
                    }
                    q.scheduleEach(group);
                    group.clear();
                    sent = end;
                }
            } else {
                while (sent < n && ((sent & 255) != 0 || System.nanoTime() - deadline < 0)) {
                    q.scheduleAt(bodies.get(sent), Instant.ofEpochMilli(System.currentTimeMillis() + ahead[sent]));
                    sent++;
                }
            }
            nanos = Math.max(1, System.nanoTime() - start);
            costs = RedisProbe.costs(before, ctx.probe().commandStats(), Math.max(1, sent), 8);
            QueueStats s = q.stats();
            stored = s.ready() + s.delayed();
        } finally {
            ctx.probe().flushAll();
        }
        String note = sent < n ? "time limit reached after storing " + sent + " of " + n : "";
        return new Result(
                        name(),
                        impl,
                        n,
                        sent / (nanos / 1e9),
                        0,
                        0,
                        0,
                        Math.max(0, stored - sent),
                        Math.max(0, sent - stored),
                        OptionalLong.empty(),
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        Impls.atLeastOnce(impl),
                        note,
                        "")
                .withCosts(costs);
    }
}
