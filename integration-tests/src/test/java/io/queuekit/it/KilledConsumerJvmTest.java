package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * A consumer in another JVM takes a batch, acknowledges part of it and is killed with SIGKILL
 * while it holds the rest: another consumer receives every message the dead one held, once its
 * visibility timeout has run out and not before, with the attempt count raised; the messages it
 * acknowledged are never delivered again.
 */
class KilledConsumerJvmTest {
    private static final Duration VISIBILITY = Duration.ofSeconds(3);
    private static final int MESSAGES = 30;
    private static final int BATCH = 10;
    private static final int ACKED = 3;

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Transport.class,
            names = {"LIST_AT_LEAST_ONCE", "ZSET"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sigkilledConsumer_itsInFlightMessagesGoToAnotherConsumerAfterTheVisibilityTimeout(
            Transport transport, @TempDir Path dir) throws Exception {
        try (RedisServer server = RedisServer.builder().requireProcessControl().start();
                RedisClient client = RedisClients.builder(server).poolSize(4).build();
                MessageQueue<String> q = transport.build(
                        client,
                        "jvmkill",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(VISIBILITY).blockTimeout(Duration.ofMillis(200)))) {
            killAConsumerHolding(server, q, transport.name(), dir);
        }
    }

    /** The same with a consumer of a stream topic's group: another consumer of the group takes over. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sigkilledConsumerOfAStreamGroup_itsInFlightMessagesGoToAnotherConsumerOfTheGroup(@TempDir Path dir)
            throws Exception {
        try (RedisServer server = RedisServer.builder().requireProcessControl().start();
                RedisClient client = RedisClients.builder(server).poolSize(4).build();
                RedisStreamTopic<String> topic = RedisStreamTopic.builder(client, "jvmkill", Codec.utf8())
                        .visibilityTimeout(VISIBILITY)
                        .blockTimeout(Duration.ofMillis(200))
                        .build()) {
            killAConsumerHolding(server, topic.group("jvmkill"), HoardingConsumer.STREAM_GROUP, dir);
        }
    }

    private static void killAConsumerHolding(RedisServer server, MessageQueue<String> q, String transport, Path dir)
            throws Exception {
        List<String> payloads = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            payloads.add("job-" + i);
        }
        List<MessageId> sent = q.sendAll(payloads);

        Path stderr = dir.resolve("consumer.err");
        long launched = System.nanoTime();
        Process child = new ProcessBuilder(
                        javaBinary(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HoardingConsumer.class.getName(),
                        server.host(),
                        String.valueOf(server.port()),
                        transport,
                        "jvmkill",
                        String.valueOf(BATCH),
                        String.valueOf(ACKED),
                        String.valueOf(VISIBILITY.toMillis()))
                .redirectError(stderr.toFile())
                .start();
        try {
            BlockingQueue<String> lines = lines(child);
            Set<MessageId> took = ids(line(lines, "TOOK ", child, stderr));
            long tookSeen = System.nanoTime();
            Set<MessageId> acked = ids(line(lines, "ACKED ", child, stderr));
            assertThat(took).hasSize(BATCH);
            assertThat(acked).hasSize(ACKED);
            assertThat(q.stats().inFlight()).isEqualTo(BATCH - ACKED);

            child.destroyForcibly(); // SIGKILL on Unix
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);

            Set<MessageId> held = new HashSet<>(took);
            held.removeAll(acked);
            Map<MessageId, Integer> attempts = new HashMap<>();
            Map<MessageId, Long> receivedAt = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (attempts.size() < MESSAGES - ACKED && System.nanoTime() - deadline < 0) {
                for (Delivery<String> d : q.pollBatch(50, 500, TimeUnit.MILLISECONDS)) {
                    attempts.merge(d.id(), d.attempt(), Math::max);
                    receivedAt.putIfAbsent(d.id(), System.nanoTime());
                    assertThat(d.ack()).isTrue();
                }
            }

            Set<MessageId> expected = new HashSet<>(sent);
            expected.removeAll(acked);
            assertThat(attempts.keySet())
                    .as("every message but the acknowledged ones")
                    .isEqualTo(expected);
            for (MessageId id : held) {
                assertThat(attempts.get(id))
                        .as("attempt of " + id + ", held by the dead consumer")
                        .isEqualTo(2);
                long after = receivedAt.get(id) - launched;
                assertThat(after).as("not before the lease ran out").isGreaterThanOrEqualTo(VISIBILITY.toNanos());
            }
            long lastHeld = held.stream().mapToLong(receivedAt::get).max().orElseThrow();
            long lateness = TimeUnit.NANOSECONDS.toMillis(lastHeld - tookSeen - VISIBILITY.toNanos());
            System.out.printf(
                    "%s: the killed JVM held %d messages (acked %d); all came back with attempt 2, "
                            + "the last %d ms from the end of its lease as this JVM saw it; %d untouched messages delivered once%n",
                    transport, held.size(), ACKED, lateness, MESSAGES - BATCH);
            assertThat(lateness).as("ms from lease end to redelivery").isLessThan(5_000);
            assertThat(q.stats().total()).isZero();
        } finally {
            child.destroyForcibly();
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (java.io.IOException e) {
                        // the process died; the test notices the missing line
                    }
                },
                "hoarding-consumer-stdout");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    private static String line(BlockingQueue<String> lines, String prefix, Process p, Path stderr) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
            if (line == null && !p.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        File err = stderr.toFile();
        throw new AssertionError("the consumer JVM printed no line starting with '" + prefix + "'; its stderr:\n"
                + (err.exists() ? Files.readString(stderr) : "(none)"));
    }

    private static Set<MessageId> ids(String csv) {
        return csv.isEmpty()
                ? Set.of()
                : Arrays.stream(csv.split(",")).map(MessageId::of).collect(Collectors.toSet());
    }
}
