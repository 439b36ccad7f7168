package io.queuekit.cli;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.inmemory.InMemoryTopic;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;

/**
 * The demo: the same scenarios on every transport, and a table of what each really did. Every
 * number in the table is counted during the run, not taken from the transports' claims.
 */
final class Demo {
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration JEDIS_TIMEOUT = Duration.ofSeconds(2);
    private static final int WORKERS = 4;
    private static final int CRASHED = 25;
    private static final long STEP_LIMIT_MS = 20_000;

    private final PrintStream out;
    private final int messages;
    private final String prefix = "queuekit-demo-" + Long.toHexString(System.nanoTime());

    private Demo(PrintStream out, int messages) {
        this.out = out;
        this.messages = messages;
    }

    @Command(
            name = "demo",
            description = {
                "Runs every transport side by side and prints what each delivered, duplicated and lost.",
                "One scenario on each transport (redis-list in both modes, redis-zset, redis-pubsub, redis-stream, in-memory): send,"
                        + " consume with several workers, a consumer that dies mid-message, a subscriber (or a stream's group) that joins late,"
                        + " delayed messages.",
                "It uses the Redis named by --redis, --redis-file or REDIS_URL (its keys are prefixed queuekit-demo-* and"
                        + " deleted afterwards), else starts one: redis-server on PATH, or the shipped binary."
            })
    static final class DemoCommand implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        RedisUrl.Options redis;

        @Option(
                names = "--messages",
                paramLabel = "N",
                defaultValue = "2000",
                description = "Messages per scenario, 100 to 1000000 (default: ${DEFAULT-VALUE}).")
        int messages;

        DemoCommand(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            if (messages < 100 || messages > 1_000_000) {
                throw new Main.Usage("--messages must be 100 to 1000000: " + messages);
            }
            return new Demo(ctx.out(), messages).run(redis.given(ctx));
        }
    }

    private int run(URI given) {
        RedisServer server = null;
        long started = System.nanoTime();
        try {
            URI uri = given;
            if (uri == null) {
                out.println("starting Redis ...");
                server = RedisServer.builder().start();
                uri = URI.create(server.uri());
                out.println("Redis " + server.version() + " (" + server.source() + ") at "
                        + RedisUrl.redacted(URI.create(server.uri())));
            }
            // Jedis' 2 s connect and read timeouts, and a bound on blocking reads too (Jedis' own default waits
            // forever)
            RedisClients.Builder settings = RedisClients.builder(uri.toString())
                    .poolSize(32)
                    .connectionTimeout(JEDIS_TIMEOUT)
                    .socketTimeout(JEDIS_TIMEOUT);
            try (RedisClient client = settings.build()) {
                List<Row> rows = new ArrayList<>();
                List<Semantics> semantics = new ArrayList<>();
                rows.add(queue(
                        "redis-list (at-least-once)",
                        name -> RedisListQueue.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics));
                rows.add(queue(
                        "redis-list (at-most-once)",
                        name -> RedisListQueue.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                                .build(),
                        semantics));
                rows.add(queue(
                        "redis-list (3 shards)",
                        name -> RedisListQueue.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .visibilityTimeout(LEASE)
                                .shards(3)
                                .build(),
                        semantics));
                Row zset = queue(
                        "redis-zset",
                        name -> RedisDelayQueue.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics);
                rows.add(delays(
                        zset,
                        name -> RedisDelayQueue.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .visibilityTimeout(LEASE)
                                .build()));
                rows.add(broadcast(
                        "redis-pubsub",
                        name -> RedisBroadcaster.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .build(),
                        semantics));
                rows.add(topic(
                        "redis-stream",
                        name -> RedisStreamTopic.builder(client, name, Codec.utf8())
                                .keyPrefix(prefix)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics));
                rows.add(queue(
                        "in-memory queue",
                        name -> InMemoryMessageQueue.<String>builder(name)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics));
                Row memDelay = queue(
                        "in-memory delay queue",
                        name -> InMemoryDelayQueue.<String>builder(name)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics);
                rows.add(delays(
                        memDelay,
                        name -> InMemoryDelayQueue.<String>builder(name)
                                .visibilityTimeout(LEASE)
                                .build()));
                rows.add(broadcast("in-memory broadcaster", InMemoryBroadcaster::<String>create, semantics));
                rows.add(topic(
                        "in-memory topic",
                        name -> InMemoryTopic.<String>builder(name)
                                .visibilityTimeout(LEASE)
                                .build(),
                        semantics));
                if (given != null) {
                    deleteKeys(client);
                }
                out.println();
                out.println("What each transport promises (Semantics):");
                out.println(Semantics.markdownTable(semantics));
                out.println("What each transport did in this run (" + messages + " messages each, " + WORKERS
                        + " workers, a consumer that died holding " + CRASHED
                        + " messages, a subscriber (for a topic: a group's consumer) that joined halfway):");
                out.println(Row.table(rows));
                out.printf("done in %.0f s%n", (System.nanoTime() - started) / 1e9);
                return 0;
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * A queue name of its own for each transport: a list queue and a delay queue keep their
     * messages in different layouts, and neither opens the other's keys.
     */
    private static String queueName(String base, String label) {
        return base + "." + label.replaceAll("[^A-Za-z0-9_-]+", "-").replaceAll("^-|-$", "");
    }

    /** Send, a consumer that dies holding messages, then several workers; count what arrives. */
    private Row queue(String label, Function<String, MessageQueue<String>> open, List<Semantics> semantics) {
        step(label, "sending " + messages);
        try (MessageQueue<String> q = open.apply(queueName("orders", label))) {
            semantics.add(q.semantics());
            List<String> payloads = new ArrayList<>(messages);
            for (int i = 0; i < messages; i++) {
                payloads.add("msg-" + i);
            }
            for (int i = 0; i < messages; i += 500) {
                q.sendAll(payloads.subList(i, Math.min(messages, i + 500)));
            }
            step(label, "a consumer takes " + CRASHED + " messages and dies without settling them");
            Set<String> crashed = ConcurrentHashMap.newKeySet();
            for (Delivery<String> d : q.pollBatch(CRASHED, 5, TimeUnit.SECONDS)) {
                crashed.add(d.payload());
            }
            step(label, "consuming with " + WORKERS + " workers");
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            AtomicInteger deliveries = new AtomicInteger();
            try (Subscription s = q.consume(
                    d -> {
                        deliveries.incrementAndGet();
                        seen.merge(d.payload(), 1, Integer::sum);
                    },
                    ConsumeOptions.builder()
                            .concurrency(WORKERS)
                            .batchSize(10)
                            .pollTimeout(Duration.ofMillis(200))
                            .build())) {
                awaitQuiet(() -> seen.size() == messages, deliveries);
            }
            Row r = new Row(label, q.semantics());
            r.delivered = seen.size();
            r.duplicates = (long) deliveries.get() - seen.size();
            r.lostAfterCrash =
                    crashed.stream().filter(p -> !seen.containsKey(p)).count();
            r.missedLate = messages
                    - crashed.size()
                    - seen.keySet().stream().filter(p -> !crashed.contains(p)).count();
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Schedules messages due at random over 0-2 s and measures how late each arrives. */
    private Row delays(Row row, Function<String, DelayQueue<String>> open) {
        int count = Math.min(messages, 500);
        step(row.label, "scheduling " + count + " messages due at random over the next 2 s");
        try (DelayQueue<String> q = open.apply(queueName("reminders", row.label))) {
            Map<String, Long> due = new ConcurrentHashMap<>();
            for (int i = 0; i < count; i++) {
                long delay = ThreadLocalRandom.current().nextLong(2000);
                due.put("r-" + i, System.currentTimeMillis() + delay);
                q.schedule("r-" + i, Duration.ofMillis(delay));
            }
            List<Long> lateness = new ArrayList<>();
            AtomicInteger deliveries = new AtomicInteger();
            try (Subscription s = q.consume(
                    d -> {
                        long late = System.currentTimeMillis() - due.get(d.payload());
                        synchronized (lateness) {
                            lateness.add(late);
                        }
                        deliveries.incrementAndGet();
                    },
                    ConsumeOptions.builder().concurrency(WORKERS).build())) {
                awaitQuiet(() -> deliveries.get() >= count, deliveries);
            }
            long[] l = lateness.stream().mapToLong(Long::longValue).sorted().toArray();
            row.delayed = l.length;
            row.early = Arrays.stream(l).filter(x -> x < 0).count();
            row.lateness = l.length == 0
                    ? "none arrived"
                    : l[l.length / 2] + " / " + l[(int) Math.min(l.length - 1, Math.ceil(l.length * 0.99) - 1)] + " / "
                            + l[l.length - 1];
            return row;
        }
    }

    /** Two subscribers from the start (one dies halfway), one that joins halfway. */
    private Row broadcast(String label, Function<String, Broadcaster<String>> open, List<Semantics> semantics) {
        step(label, "publishing " + messages + " messages; one subscriber dies and one joins halfway");
        try (Broadcaster<String> b = open.apply("news")) {
            semantics.add(b.semantics());
            Set<String> steady = ConcurrentHashMap.newKeySet();
            Set<String> late = ConcurrentHashMap.newKeySet();
            Set<String> dying = ConcurrentHashMap.newKeySet();
            AtomicInteger deliveries = new AtomicInteger();
            try (Subscription s1 = b.subscribe(m -> {
                deliveries.incrementAndGet();
                steady.add(m);
            })) {
                Subscription s3 = b.subscribe(dying::add);
                int half = messages / 2;
                for (int i = 0; i < half; i++) {
                    b.publish("news-" + i);
                }
                awaitQuiet(() -> dying.size() >= half, deliveries);
                s3.close();
                try (Subscription s2 = b.subscribe(late::add)) {
                    for (int i = half; i < messages; i++) {
                        b.publish("news-" + i);
                    }
                    awaitQuiet(() -> steady.size() == messages && late.size() >= messages - half, deliveries);
                }
                Row r = new Row(label, b.semantics());
                r.delivered = steady.size();
                r.duplicates = (long) deliveries.get() - steady.size();
                r.lostAfterCrash = (messages - half)
                        - dying.stream().filter(m -> number(m) >= half).count();
                r.missedLate = (long) messages - late.size();
                return r;
            }
        }
    }

    /**
     * Three groups on one topic: one consuming from the start, one whose consumer dies holding
     * messages and is replaced halfway, one whose consumer (a service redeploying) starts halfway.
     */
    private Row topic(String label, Function<String, Topic<String>> open, List<Semantics> semantics) {
        step(
                label,
                "publishing " + messages + " messages to three groups; one group's consumer dies, one starts halfway");
        try (Topic<String> t = open.apply("events")) {
            semantics.add(t.semantics());
            ConsumerGroup<String> lateGroup = t.group("late"); // every group exists before the first publish
            ConsumerGroup<String> dying = t.group("replaced");
            Set<String> steady = ConcurrentHashMap.newKeySet();
            Set<String> replaced = ConcurrentHashMap.newKeySet();
            Set<String> late = ConcurrentHashMap.newKeySet();
            AtomicInteger deliveries = new AtomicInteger();
            ConsumeOptions one = ConsumeOptions.builder().concurrency(1).build();
            try (ConsumerGroup<String> steadyGroup = t.group("steady");
                    Subscription s1 = steadyGroup.consume(
                            d -> {
                                deliveries.incrementAndGet();
                                steady.add(d.payload());
                            },
                            one)) {
                int half = messages / 2;
                for (int i = 0; i < half; i++) {
                    t.publish("event-" + i);
                }
                dying.pollBatch(CRASHED, 5, TimeUnit.SECONDS); // taken, never settled: its process died
                dying.close();
                awaitQuiet(() -> steady.size() >= half, deliveries);
                for (int i = half; i < messages; i++) {
                    t.publish("event-" + i);
                }
                step(label, "the replaced consumer's successor and the late group's consumer start");
                try (ConsumerGroup<String> successor = t.group("replaced");
                        Subscription s2 = successor.consume(d -> replaced.add(d.payload()), one);
                        Subscription s3 = lateGroup.consume(d -> late.add(d.payload()), one)) {
                    AtomicInteger all = new AtomicInteger();
                    awaitQuiet(
                            () -> {
                                all.set(steady.size() + replaced.size() + late.size());
                                return steady.size() == messages
                                        && replaced.size() == messages
                                        && late.size() == messages;
                            },
                            all);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            Row r = new Row(label, t.semantics());
            r.delivered = steady.size();
            r.duplicates = (long) deliveries.get() - steady.size();
            r.lostAfterCrash = (long) messages - replaced.size();
            r.missedLate = (long) messages - late.size();
            for (String g : List.of("steady", "replaced", "late")) {
                t.deleteGroup(g);
            }
            return r;
        }
    }

    private static int number(String payload) {
        return Integer.parseInt(payload.substring(payload.indexOf('-') + 1));
    }

    /** Waits until {@code done}, or until nothing more arrived for a lease and a bit, or the step limit. */
    private static void awaitQuiet(BooleanSupplier done, AtomicInteger progress) {
        long limit = System.currentTimeMillis() + STEP_LIMIT_MS;
        long quietFor = LEASE.toMillis() + 3000;
        int last = -1;
        long lastChange = System.currentTimeMillis();
        while (!done.getAsBoolean() && System.currentTimeMillis() < limit) {
            int now = progress.get();
            if (now != last) {
                last = now;
                lastChange = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - lastChange > quietFor) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void step(String label, String what) {
        out.println("[" + label + "] " + what);
    }

    private void deleteKeys(RedisClient client) {
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams match = new ScanParams().match(prefix + ":*").count(1000);
        do {
            var r = client.scan(cursor, match);
            if (!r.getResult().isEmpty()) {
                client.del(r.getResult().toArray(String[]::new));
            }
            cursor = r.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }

    /** One line of the results table. */
    private static final class Row {
        final String label;
        final Semantics semantics;
        long delivered;
        long duplicates;
        long lostAfterCrash;
        long missedLate;
        long delayed = -1;
        long early;
        String lateness = "-";

        Row(String label, Semantics semantics) {
            this.label = label;
            this.semantics = semantics;
        }

        static String table(List<Row> rows) {
            StringBuilder sb = new StringBuilder(String.format(
                    "%-28s %-14s %9s %10s %17s %15s %30s%n",
                    "transport",
                    "promise",
                    "delivered",
                    "duplicates",
                    "lost after crash",
                    "missed by late",
                    "delay lateness p50/p99/max ms"));
            for (Row r : rows) {
                String delay = r.delayed < 0 ? "-" : r.lateness + (r.early > 0 ? " (" + r.early + " EARLY)" : "");
                sb.append(String.format(
                        "%-28s %-14s %9d %10d %17d %15d %30s%n",
                        r.label,
                        r.semantics.guarantee().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                        r.delivered,
                        r.duplicates,
                        r.lostAfterCrash,
                        r.missedLate,
                        delay));
            }
            return sb.toString();
        }
    }
}
