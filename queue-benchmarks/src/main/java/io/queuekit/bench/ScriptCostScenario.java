package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import redis.clients.jedis.RedisClient;

/**
 * What each script call of a queue costs Redis, one operation at a time from one thread on an
 * otherwise idle server: for each operation, {@code n} calls that each make exactly one script
 * call, and the server time INFO commandstats gives {@code EVALSHA} for them (the commands the
 * script runs included). The result's commands read {@code "claim 14.2 us/call, ack 9.8 us/call"};
 * an operation that made another number of script calls than calls is marked with that number.
 */
final class ScriptCostScenario extends Scenario {
    private final int calls;

    ScriptCostScenario(String name, String summary, List<String> impls, int calls) {
        super(name, summary, impls);
        this.calls = calls;
    }

    /** One operation measured: {@link #run} runs it once per call. */
    private interface Op {
        void run(int i) throws Exception;
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(calls, 100);
        String body = Body.all(1).get(0);
        RedisClient client = Clients.jedis(ctx.uri());
        Map<String, Double> costs = new LinkedHashMap<>();
        List<String> odd = new ArrayList<>();
        try {
            if (impl.equals(Impls.LIST_ALO)) {
                try (RedisListQueue<String> q = RedisListQueue.builder(client, ctx.freshName(name()), Codec.utf8())
                        .build()) {
                    List<Delivery<String>> held = take(q, body, n);
                    measure(ctx, "ack", n, i -> held.get(i).ack(), costs, odd);
                }
            } else {
                try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, ctx.freshName(name()), Codec.utf8())
                        .build()) {
                    measure(ctx, "claim-nothing", n, i -> q.poll(), costs, odd);
                    measure(ctx, "schedule", n, i -> q.scheduleAt(body, Instant.now().plusSeconds(3600)), costs, odd);
                    measure(ctx, "send", n, i -> q.send(body), costs, odd);
                    List<Delivery<String>> held = new ArrayList<>(n);
                    measure(ctx, "claim", n, i -> held.add(q.poll()), costs, odd);
                    measure(ctx, "ack", n, i -> held.get(i).ack(), costs, odd);
                }
            }
        } finally {
            Impls.closeQuietly(client);
            ctx.probe().flushAll();
        }
        List<String> parts = new ArrayList<>();
        costs.forEach((op, us) -> parts.add(String.format(Locale.ROOT, "%s %.1f us/call", op, us)));
        parts.addAll(odd);
        return new Result(name(), impl, n, 0, 0, 0, 0, 0, 0, OptionalLong.empty(), OptionalDouble.empty(),
                OptionalDouble.empty(), Impls.atLeastOnce(impl), "", String.join(", ", parts));
    }

    private static List<Delivery<String>> take(MessageQueue<String> q, String body, int n) {
        for (int from = 0; from < n; from += 1000) {
            q.sendAll(java.util.Collections.nCopies(Math.min(1000, n - from), body));
        }
        List<Delivery<String>> held = new ArrayList<>(n);
        while (held.size() < n) {
            Delivery<String> d = q.poll();
            if (d != null) {
                held.add(d);
            }
        }
        return held;
    }

    private static void measure(Context ctx, String op, int n, Op run, Map<String, Double> costs, List<String> odd)
            throws Exception {
        long[] before = ctx.probe().commandStats().getOrDefault("evalsha", new long[2]);
        for (int i = 0; i < n; i++) {
            run.run(i);
        }
        long[] after = ctx.probe().commandStats().getOrDefault("evalsha", new long[2]);
        long scripts = after[0] - before[0];
        if (scripts != n) {
            odd.add(String.format(Locale.ROOT, "%s made %d script calls for %d", op, scripts, n));
        }
        costs.put(op, scripts == 0 ? 0 : (after[1] - before[1]) / (double) scripts);
    }
}
