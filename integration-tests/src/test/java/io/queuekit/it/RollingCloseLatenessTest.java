package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * The delay queue's wake-up protocol across processes: three queue objects on one queue, one of
 * them in a second JVM, consume messages that fall due one after another while one object closes,
 * as in a rolling deploy, and a new one takes its place; then, with the queue quiet, an object
 * takes the one message's wake-up and closes before it is due. Every message is delivered once,
 * and none late by more than a second (a wake-up kept by an object that closed once made messages
 * 4-8 s late); the lateness is printed.
 */
class RollingCloseLatenessTest {
    private static final int MESSAGES = 80;
    private static final long ON_TIME_MILLIS = 1_000;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void threeObjects_oneInAnotherJvm_oneClosingMidway_deliverEveryMessageOnTime(@TempDir Path dir) throws Exception {
        String name = "rolling";
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client = RedisClients.builder(server)
                        .poolSize(24)
                        .blockingSocketTimeout(Duration.ofSeconds(15))
                        .build()) {
            Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
            List<String> duplicates = new CopyOnWriteArrayList<>();
            Path stderr = dir.resolve("consumer.err");
            Process child = new ProcessBuilder(
                            javaBinary(),
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            System.getProperty("java.class.path"),
                            DelayConsumerProcess.class.getName(),
                            server.host(),
                            String.valueOf(server.port()),
                            name)
                    .redirectError(stderr.toFile())
                    .start();
            List<RedisDelayQueue<String>> objects = new ArrayList<>();
            try {
                Thread reader = readLines(child, deliveredAt, duplicates);
                awaitReady(child, deliveredAt, stderr);
                RedisDelayQueue<String> a = consumer(client, name, deliveredAt, duplicates);
                RedisDelayQueue<String> b = consumer(client, name, deliveredAt, duplicates);
                objects.add(a);
                objects.add(b);

                Random random = new Random(42);
                Map<String, Instant> due = new ConcurrentHashMap<>();
                // busy: one message every 100 ms, each due 0.3-1.8 s later, while a closes and its
                // successor starts
                long start = System.nanoTime();
                for (int i = 0; i < MESSAGES; i++) {
                    long at = start + TimeUnit.MILLISECONDS.toNanos(100L * i);
                    while (System.nanoTime() - at < 0) {
                        Thread.sleep(1); // the producer's pace
                    }
                    if (i == MESSAGES / 3) {
                        a.close(); // the rolling deploy: a stops...
                    }
                    if (i == MESSAGES / 3 + 10) {
                        objects.add(consumer(client, name, deliveredAt, duplicates)); // ...and its successor starts
                    }
                    schedule(b, "m" + i, Instant.now().plusMillis(300 + random.nextInt(1_500)), due);
                }
                awaitDelivered(deliveredAt, due.size());

                // quiet: the one message due takes its wake-up to an object that closes before it is
                // due. That object's consumer blocks (and polls) ten times longer than the others, so it
                // is the one blocked longest, whom the server serves first
                RedisDelayQueue<String> closing =
                        consumer(client, name, deliveredAt, duplicates, Duration.ofSeconds(10), 1);
                objects.add(closing);
                Thread.sleep(1_500); // every other consumer re-blocks within its block timeout of 1 s
                schedule(b, "quiet", Instant.now().plusMillis(2_000), due);
                closing.close();
                awaitDelivered(deliveredAt, due.size());

                assertThat(deliveredAt.keySet()).as("delivered").containsExactlyInAnyOrderElementsOf(due.keySet());
                assertThat(duplicates).as("delivered twice").isEmpty();
                List<Long> lateness = new ArrayList<>();
                due.forEach((payload, when) -> lateness.add(deliveredAt.get(payload) - when.toEpochMilli()));
                lateness.sort(null);
                System.out.printf(
                        "rolling close, 3 objects (one in a second JVM): lateness of %d messages, "
                                + "p50 %d ms, p99 %d ms, max %d ms%n",
                        lateness.size(),
                        lateness.get(lateness.size() / 2),
                        lateness.get(lateness.size() * 99 / 100),
                        lateness.get(lateness.size() - 1));
                assertThat(lateness.get(0)).as("never early").isGreaterThanOrEqualTo(-5); // two clocks' reads
                assertThat(lateness.get(lateness.size() - 1))
                        .as("the latest, ms")
                        .isLessThan(ON_TIME_MILLIS);
                child.getOutputStream().close();
                assertThat(child.waitFor(20, TimeUnit.SECONDS))
                        .as("the second JVM closes its queue and ends")
                        .isTrue();
                reader.join(5_000);
            } finally {
                child.destroyForcibly();
                for (RedisDelayQueue<String> q : objects) {
                    q.close();
                }
            }
        }
    }

    private static void schedule(RedisDelayQueue<String> q, String payload, Instant when, Map<String, Instant> due) {
        due.put(payload, when);
        q.scheduleAt(payload, when);
    }

    private static void awaitDelivered(Map<String, Long> deliveredAt, int count) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> deliveredAt.size() >= count);
    }

    private static RedisDelayQueue<String> consumer(
            RedisClient client, String name, Map<String, Long> deliveredAt, List<String> duplicates) {
        return consumer(client, name, deliveredAt, duplicates, Duration.ofSeconds(1), 2);
    }

    private static RedisDelayQueue<String> consumer(
            RedisClient client,
            String name,
            Map<String, Long> deliveredAt,
            List<String> duplicates,
            Duration blockTimeout,
            int concurrency) {
        RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                .blockTimeout(blockTimeout)
                .build();
        q.consume(
                d -> record(d.payload(), System.currentTimeMillis(), deliveredAt, duplicates),
                ConsumeOptions.builder()
                        .concurrency(concurrency)
                        .pollTimeout(blockTimeout)
                        .build());
        return q;
    }

    private static void record(String payload, long at, Map<String, Long> deliveredAt, List<String> duplicates) {
        if (deliveredAt.putIfAbsent(payload, at) != null) {
            duplicates.add(payload);
        }
    }

    private static Thread readLines(Process p, Map<String, Long> deliveredAt, List<String> duplicates) {
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            if (line.startsWith("GOT ")) {
                                String[] parts = line.split(" ");
                                record(parts[1], Long.parseLong(parts[2]), deliveredAt, duplicates);
                            } else if (line.equals("READY")) {
                                deliveredAt.put("READY", 0L);
                            }
                        }
                    } catch (java.io.IOException e) {
                        // the process ended
                    }
                },
                "delay-consumer-stdout");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    private static void awaitReady(Process p, Map<String, Long> seen, Path stderr) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (seen.remove("READY") == null) {
            if (!p.isAlive() || System.nanoTime() - deadline > 0) {
                throw new AssertionError("the consumer JVM did not start; its stderr:\n"
                        + (Files.exists(stderr) ? Files.readString(stderr) : "(none)"));
            }
            Thread.sleep(20);
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
