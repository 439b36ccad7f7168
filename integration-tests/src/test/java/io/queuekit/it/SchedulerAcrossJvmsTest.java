package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.Schedule;
import io.queuekit.Scheduler;
import io.queuekit.Trigger;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * Three schedulers of one schedule, two in this JVM on queue objects of their own and one in
 * another JVM: one message per tick, none early, none missing; the other JVM killed with SIGKILL
 * mid-way changes nothing; a change put here is what the other JVM stores once it runs alone.
 */
class SchedulerAcrossJvmsTest {
    private static final Duration PERIOD = Duration.ofMillis(250);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void threeSchedulersInTwoJvms_storeEachTickOnce(@TempDir Path dir) throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client = RedisClients.builder(server).poolSize(8).build();
                RedisDelayQueue<String> consumer =
                        RedisDelayQueue.builder(client, "ticks", Codec.utf8()).build();
                RedisDelayQueue<String> second =
                        RedisDelayQueue.builder(client, "ticks", Codec.utf8()).build()) {
            Path stderr = dir.resolve("scheduler.err");
            Process child = start(server, "v1", stderr);
            try {
                awaitLine(child, "SCHEDULING", stderr);
                Scheduler<String> here = consumer.scheduler();
                Scheduler<String> there = second.scheduler();
                Schedule<String> v1 = Schedule.of("beat", Trigger.every(PERIOD), "v1");
                here.put(v1);
                there.put(v1);

                List<Instant> ticks = receive(consumer, 12, "v1", null);
                child.destroyForcibly(); // SIGKILL: the two here go on alone
                assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
                ticks.addAll(receive(consumer, 8, "v1", null));
                assertConsecutive(ticks);

                // the other JVM again, alone once this JVM's schedulers close: it follows the change put here
                Process again = start(server, "v1", stderr);
                try {
                    awaitLine(again, "SCHEDULING", stderr);
                    here.put(Schedule.of("beat", Trigger.every(PERIOD), "v2"));
                    here.close();
                    there.close();
                    List<Instant> changed = receive(consumer, 8, "v2", "v1");
                    assertConsecutive(changed);
                } finally {
                    again.destroyForcibly();
                }
            } finally {
                child.destroyForcibly();
            }
        }
    }

    /**
     * Receives {@code n} ticks carrying {@code payload}, acking each, none early; ticks carrying
     * {@code before} (stored before a change took effect) are passed over, any other payload fails.
     */
    private static List<Instant> receive(RedisDelayQueue<String> q, int n, String payload, String before)
            throws Exception {
        List<Instant> ticks = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ticks.size() < n && System.nanoTime() - deadline < 0) {
            Delivery<String> d = q.poll(1, TimeUnit.SECONDS);
            if (d == null) {
                continue;
            }
            Instant now = Instant.now();
            String id = d.id().value();
            Instant tick = Instant.parse(id.substring(id.indexOf('@') + 1));
            assertThat(now).as("tick %s handed out early", tick).isAfterOrEqualTo(tick);
            if (d.payload().equals(payload)) {
                ticks.add(tick);
            } else {
                assertThat(d.payload()).as("payload of tick %s", tick).isEqualTo(before);
            }
            d.ack();
        }
        assertThat(ticks).as("ticks of %s", payload).hasSize(n);
        return ticks;
    }

    private static void assertConsecutive(List<Instant> ticks) {
        assertThat(ticks).doesNotHaveDuplicates();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(Duration.between(ticks.get(i - 1), ticks.get(i)))
                    .as("from %s to the next tick %s", ticks.get(i - 1), ticks.get(i))
                    .isEqualTo(PERIOD);
        }
    }

    private static Process start(RedisServer server, String payload, Path stderr) throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        SchedulingJvm.class.getName(),
                        server.host(),
                        String.valueOf(server.port()),
                        "ticks",
                        "beat",
                        String.valueOf(PERIOD.toMillis()),
                        payload)
                .redirectError(stderr.toFile())
                .start();
    }

    private static void awaitLine(Process p, String expected, Path stderr) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (!expected.equals(line)) {
            throw new AssertionError("the scheduler JVM printed " + line + " instead of " + expected + "; its stderr:\n"
                    + (Files.exists(stderr) ? Files.readString(stderr) : "(none)"));
        }
    }
}
