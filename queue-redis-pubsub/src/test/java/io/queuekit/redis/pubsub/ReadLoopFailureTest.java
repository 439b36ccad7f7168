package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Whatever ends a subscription's read loop, it subscribes again and reports the gap; it does not
 * close for good. The failure here is the one a review reproduced: a message too large for the
 * subscriber's heap, so Jedis's read ends in an {@link OutOfMemoryError}. The subscriber runs in a
 * child JVM with a 64 MiB heap ({@link OomSubscriber}), against a real Redis.
 */
class ReadLoopFailureTest {
    private static final String CHANNEL_KEY = "queuekit:{" + OomSubscriber.CHANNEL + "}";

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void outOfMemoryWhileReadingAMessage_subscribesAgain_andReportsTheGap() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .config("client-output-buffer-limit", "pubsub 0 0 0") // let the huge message through
                        .start();
                // ordinary commands get longer than the default 1 s: one of them publishes 96 MiB
                RedisClient publisher = RedisClients.builder(server)
                        .socketTimeout(Duration.ofSeconds(10))
                        .build()) {
            Path stderr = Files.createTempFile("queuekit-oom-subscriber", ".log");
            Process child = new ProcessBuilder(
                            javaBinary(),
                            "-Xmx64m",
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            System.getProperty("java.class.path"),
                            OomSubscriber.class.getName(),
                            server.host(),
                            String.valueOf(server.port()))
                    .redirectError(stderr.toFile())
                    .start();
            try {
                List<String> lines = lines(child);
                await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains("READY") || !child.isAlive());
                assertThat(lines).as("child output; its log: %s", stderr).contains("READY");

                byte[] channel = CHANNEL_KEY.getBytes(StandardCharsets.UTF_8);
                assertThat(publisher.publish(channel, new byte[96 << 20])).isEqualTo(1);

                await().atMost(Duration.ofSeconds(30))
                        .until(() -> lines.stream().anyMatch(l -> l.startsWith("GAP "))
                                || lines.contains("CLOSED")
                                || !child.isAlive());
                assertThat(lines)
                        .as("child output; its log: %s", stderr)
                        .anySatisfy(l -> assertThat(l).startsWith("GAP ").contains("OutOfMemoryError"));

                await().atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            publisher.publish(channel, "after".getBytes(StandardCharsets.UTF_8));
                            return lines.contains("GOT after");
                        });
                assertThat(lines).doesNotContain("CLOSED");
            } finally {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(stderr);
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> lines(Process p) {
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        // the child died; the test notices the missing line
                    }
                },
                "oom-subscriber-stdout");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }
}
