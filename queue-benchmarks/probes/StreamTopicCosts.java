import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Subscription;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisServer;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Where RedisStreamTopic's Redis time goes, split as topic-fanout cannot split it: INFO
 * commandstats around (1) publishing N messages to a topic of 3 groups with no consumer running,
 * (2) the three groups draining that backlog with consume() defaults, (3) publishing N more while
 * the three consumers run, as in topic-fanout. Prints each command's calls and server time per
 * message published (1) or per delivery (2, 3). On a Redis server of its own (redis-server from
 * PATH), unpinned; run from the repository's root after packaging the benchmark:
 *
 * <pre>java -cp queue-benchmarks/target/queuekit-benchmarks.jar queue-benchmarks/probes/StreamTopicCosts.java 20000</pre>
 */
public class StreamTopicCosts {
    private static final int GROUPS = 3;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        String body = "x".repeat(100);
        try (RedisServer redis = RedisServer.builder().appendOnly(false).start();
                Jedis info = new Jedis(URI.create(redis.uri()));
                RedisClient client = RedisClient.create(redis.uri());
                RedisStreamTopic<String> topic =
                        RedisStreamTopic.builder(client, "costs", Codec.utf8()).build()) {
            System.out.println("Redis " + redis.source() + ", " + n + " messages, " + GROUPS + " groups");
            List<ConsumerGroup<String>> groups = new ArrayList<>();
            for (int i = 1; i <= GROUPS; i++) {
                groups.add(topic.group("group-" + i));
            }
            Map<String, long[]> s0 = stats(info);
            for (int i = 0; i < n; i++) {
                topic.publish(i + body);
            }
            Map<String, long[]> s1 = stats(info);
            print("publish, no consumer running, per message published", s0, s1, n);
            drain(groups, n);
            Map<String, long[]> s2 = stats(info);
            print("drain of that backlog by 3 groups, consume() defaults, per delivery", s1, s2, (long) GROUPS * n);
            AtomicLong got = new AtomicLong();
            List<Subscription> consumers = new ArrayList<>();
            for (ConsumerGroup<String> g : groups) {
                consumers.add(g.consume(d -> got.incrementAndGet()));
            }
            Thread.sleep(500);
            Map<String, long[]> s3 = stats(info);
            for (int i = 0; i < n; i++) {
                topic.publish(i + body);
            }
            await(got, (long) GROUPS * n);
            consumers.forEach(Subscription::close);
            Map<String, long[]> s4 = stats(info);
            print("publish while 3 consumers run (topic-fanout's shape), per delivery", s3, s4, (long) GROUPS * n);
        }
    }

    private static void drain(List<ConsumerGroup<String>> groups, int n) throws InterruptedException {
        AtomicLong got = new AtomicLong();
        List<Subscription> consumers = new ArrayList<>();
        for (ConsumerGroup<String> g : groups) {
            consumers.add(g.consume(d -> got.incrementAndGet()));
        }
        await(got, (long) GROUPS * n);
        consumers.forEach(Subscription::close);
    }

    private static void await(AtomicLong got, long want) throws InterruptedException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (got.get() < want) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("only " + got.get() + " of " + want + " deliveries in 300 s");
            }
            Thread.sleep(5);
        }
    }

    private static Map<String, long[]> stats(Jedis j) {
        Map<String, long[]> m = new TreeMap<>();
        for (String line : j.info("commandstats").split("\r?\n", -1)) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            long calls = 0;
            long usec = 0;
            for (String kv : line.substring(line.indexOf(':') + 1).split(",", -1)) {
                if (kv.startsWith("calls=")) {
                    calls = Long.parseLong(kv.substring(6));
                } else if (kv.startsWith("usec=")) {
                    usec = Long.parseLong(kv.substring(5));
                }
            }
            m.put(line.substring(8, line.indexOf(':')), new long[] {calls, usec});
        }
        return m;
    }

    /** Commands called at least once per 1,000 messages; INFO's own calls are left out. */
    private static void print(String what, Map<String, long[]> a, Map<String, long[]> b, long per) {
        System.out.println("== " + what);
        for (Map.Entry<String, long[]> e : b.entrySet()) {
            long[] x = a.getOrDefault(e.getKey(), new long[2]);
            long calls = e.getValue()[0] - x[0];
            long usec = e.getValue()[1] - x[1];
            if (e.getKey().equals("info") || calls * 1_000 < per) {
                continue;
            }
            System.out.printf(
                    Locale.ROOT,
                    "  %-14s %5.2f calls %7.2f us  (%.1f us/call)%n",
                    e.getKey(),
                    calls / (double) per,
                    usec / (double) per,
                    usec / (double) calls);
        }
    }
}
