package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import redis.clients.jedis.RedisClient;

/**
 * What an ack costs Redis with many messages in flight, as with slow handlers: {@code inFlight}
 * messages are sent, taken one at a time as a consumer takes them, left in flight past one upkeep
 * (a second), then acked one by one in random order. The figure is Redis CPU per ack, which
 * should not grow with the number in flight.
 *
 * <p>Only the first {@value #MEASURED} acks are measured, at every size: so the figure is the cost
 * of an ack with (nearly) that many in flight, not an average over a run that empties the queue,
 * and every size is measured over a window of the same length, which a busy shared host (CPU
 * steal) disturbs alike. The rest are acked unmeasured. Leases are long ({@link #LEASE}), so that
 * a slow host cannot let the first messages taken expire before their ack comes round.
 */
final class InFlightScenario extends Scenario {
    static final int MEASURED = 1_000;
    private static final Duration LEASE = Duration.ofMinutes(10);
    private final int inFlight;

    InFlightScenario(String name, String summary, List<String> impls, int inFlight) {
        super(name, summary, impls);
        this.inFlight = inFlight;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(inFlight, 100);
        List<String> bodies = Body.all(n);
        String name = ctx.freshName(name());
        RedisClient client = Clients.jedis(ctx.uri());
        try (MessageQueue<String> q = impl.equals(Impls.LIST_ALO)
                ? RedisListQueue.builder(client, name, Codec.utf8())
                        .visibilityTimeout(LEASE)
                        .build()
                : RedisDelayQueue.builder(client, name, Codec.utf8())
                        .visibilityTimeout(LEASE)
                        .build()) {
            for (int from = 0; from < n; from += 1000) {
                q.sendAll(bodies.subList(from, Math.min(n, from + 1000)));
            }
            List<Delivery<String>> held = new ArrayList<>(n);
            while (held.size() < n) {
                Delivery<String> d = q.poll();
                if (d != null) {
                    held.add(d);
                }
            }
            Thread.sleep(1_100); // slow handlers: an upkeep passes while they work
            q.stats();
            Collections.shuffle(held, new Random(42));
            int measured = Math.min(n, MEASURED);
            RedisProbe.Snapshot before = ctx.probe().commandStats();
            long cpu = ctx.probe().cpuMicros();
            long start = System.nanoTime();
            long acked = ack(held.subList(0, measured));
            long elapsed = Math.max(1, System.nanoTime() - start);
            double cpuPerAck = ctx.cpuSince(cpu, elapsed) / measured;
            RedisProbe.Costs costs = RedisProbe.costs(before, ctx.probe().commandStats(), measured, 6);
            acked += ack(held.subList(measured, n));
            return new Result(
                            name(),
                            impl,
                            measured,
                            measured / (elapsed / 1e9),
                            0,
                            0,
                            0,
                            0,
                            n - acked,
                            OptionalLong.empty(),
                            OptionalDouble.of(cpuPerAck),
                            OptionalDouble.empty(),
                            true,
                            "",
                            "")
                    .withCosts(costs);
        } finally {
            Impls.closeQuietly(client);
            ctx.probe().flushAll();
        }
    }

    /** Acks each delivery; how many acks succeeded. */
    private static long ack(List<Delivery<String>> deliveries) {
        long acked = 0;
        for (Delivery<String> d : deliveries) {
            if (d.ack()) {
                acked++;
            }
        }
        return acked;
    }
}
