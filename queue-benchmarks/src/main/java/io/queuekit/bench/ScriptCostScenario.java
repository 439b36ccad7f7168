package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.RedisClient;

/**
 * What each script call of a queue costs Redis, one operation at a time from one thread on an
 * otherwise idle server: for each operation, {@code n} calls that each make exactly one script
 * call, and the server time INFO commandstats gives {@code EVALSHA} for them (the commands the
 * script runs included). The list queue's ack script is measured with one message in flight at a
 * time, as a consumer that keeps up has (with thousands in flight before an upkeep, it scans them);
 * its plain ack of a message taken alone is no script but an {@code LREM}.
 * The result's commands read {@code "claim 14.2 us/call, ack 9.8 us/call"}; an operation that
 * made another number of script calls than calls is marked with that number.
 */
final class ScriptCostScenario extends Scenario {
    private final int calls;

    ScriptCostScenario(String name, String summary, List<String> impls, int calls) {
        super(name, summary, impls);
        this.calls = calls;
    }

    /** The i-th call of an operation. */
    private interface Call {
        void run(int i) throws Exception;
    }

    /** Script calls and their server time per operation. */
    private static final class Costs {
        private final Context ctx;
        private final List<String> parts = new ArrayList<>();
        private final List<String> odd = new ArrayList<>();

        Costs(Context ctx) {
            this.ctx = ctx;
        }

        /**
         * Runs {@code n} calls of {@code op} one after another, with the server time of the script
         * calls they made between two INFO readings (a reading between calls would leave each
         * script to run with cold caches).
         */
        void measure(String op, int n, Call call) throws Exception {
            long[] before = ctx.probe().commandStats().command("evalsha");
            for (int i = 0; i < n; i++) {
                call.run(i);
            }
            long[] after = ctx.probe().commandStats().command("evalsha");
            long scripts = after[0] - before[0];
            parts.add(String.format(
                    Locale.ROOT, "%s %.1f us/call", op, scripts == 0 ? 0 : (after[1] - before[1]) / (double) scripts));
            if (scripts != n) {
                odd.add(String.format(Locale.ROOT, "%s made %d script calls for %d", op, scripts, n));
            }
        }

        String describe() {
            List<String> all = new ArrayList<>(parts);
            all.addAll(odd);
            return String.join(", ", all);
        }
    }

    @Override
    Result run(String impl, Context ctx) throws Exception {
        int n = ctx.config().count(calls, 100);
        String body = Body.all(1).get(0);
        RedisClient client = Clients.jedis(ctx.uri());
        Costs costs = new Costs(ctx);
        try {
            if (impl.equals(Impls.LIST_ALO)) {
                try (RedisListQueue<String> q = RedisListQueue.builder(client, ctx.freshName(name()), Codec.utf8())
                        .build()) {
                    // one in flight at a time, as with a consumer that keeps up. LPUSH and BLMOVE are
                    // plain commands, and so is a plain ack of a message no upkeep moved yet (an
                    // LREM); ackAll makes the ack script, as an ack after an upkeep or a lease
                    // extension does, so it is the one script call
                    costs.measure("ack", n, i -> {
                        q.send(body);
                        q.ackAll(List.of(q.poll(1, TimeUnit.SECONDS)));
                    });
                }
            } else {
                try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, ctx.freshName(name()), Codec.utf8())
                        .build()) {
                    costs.measure("claim-nothing", n, i -> q.poll());
                    costs.measure(
                            "schedule", n, i -> q.scheduleAt(body, Instant.now().plusSeconds(3600)));
                    costs.measure("send", n, i -> q.send(body));
                    List<Delivery<String>> held = new ArrayList<>(n);
                    costs.measure("claim", n, i -> held.add(q.poll()));
                    costs.measure("ack", n, i -> held.get(i).ack());
                }
            }
        } finally {
            Impls.closeQuietly(client);
            ctx.probe().flushAll();
        }
        return Result.undelivered(name(), impl, n, "", costs.describe());
    }
}
