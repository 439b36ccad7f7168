package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import redis.clients.jedis.RedisClient;

/**
 * What an ack costs Redis with many messages in flight, as with slow handlers: {@code inFlight}
 * messages are sent, taken one at a time as a consumer takes them, left in flight past one upkeep
 * (a second), then acked one by one in random order. The figure is Redis CPU per ack, which
 * should not grow with the number in flight.
 */
final class InFlightScenario extends Scenario {
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
                ? RedisListQueue.builder(client, name, Codec.utf8()).build()
                : RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
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
            Map<String, long[]> before = ctx.probe().commandStats();
            long cpu = ctx.probe().cpuMicros();
            long start = System.nanoTime();
            long acked = 0;
            for (Delivery<String> d : held) {
                if (d.ack()) {
                    acked++;
                }
            }
            long elapsed = Math.max(1, System.nanoTime() - start);
            double cpuPerAck = ctx.cpuSince(cpu, elapsed) / n;
            String commands = RedisProbe.perMessage(before, ctx.probe().commandStats(), n, 6);
            return new Result(name(), impl, n, n / (elapsed / 1e9), 0, 0, 0, 0, n - acked, OptionalLong.empty(),
                    OptionalDouble.of(cpuPerAck), OptionalDouble.empty(), true, "", commands);
        } finally {
            Impls.closeQuietly(client);
            ctx.probe().flushAll();
        }
    }
}
