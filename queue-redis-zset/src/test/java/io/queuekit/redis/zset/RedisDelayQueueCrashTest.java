package io.queuekit.redis.zset;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Redis killed with SIGKILL while messages are scheduled, and restarted from its append-only file:
 * every message is still delivered, never early, on time if it falls due after the restart and right
 * after the restart if it fell due while the server was down. Nothing has to move due messages, so
 * nothing has to be restarted but Redis itself.
 */
class RedisDelayQueueCrashTest {
    private static final int GROUPS = 40;
    private static final int PER_GROUP = 10;
    private static final int MESSAGES = GROUPS * PER_GROUP;
    /** Due instants 150 ms apart: 6 s in all, so some fall due before, during and after the outage. */
    private static final int STEP_MILLIS = 150;

    @Test
    @Timeout(value = 90, unit = SECONDS)
    void killAndRestartWithAof_everyScheduledMessageIsStillDelivered_neverEarly() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.create(server);
                RedisDelayQueue<String> q = RedisDelayQueue.builder(client, "crash", Codec.utf8())
                        .visibilityTimeout(Duration.ofSeconds(1))
                        .blockTimeout(Duration.ofMillis(500))
                        .build()) {
            Instant base = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(500);
            Map<String, Instant> due = new ConcurrentHashMap<>();
            for (int g = 0; g < GROUPS; g++) {
                Instant at = base.plusMillis((long) g * STEP_MILLIS);
                List<String> group = new ArrayList<>();
                for (int i = 0; i < PER_GROUP; i++) {
                    group.add("m" + g + "-" + i);
                    due.put("m" + g + "-" + i, at);
                }
                q.scheduleAllAt(group, at);
            }
            Map<String, Instant> firstReceipt = new ConcurrentHashMap<>();
            List<String> early = new CopyOnWriteArrayList<>();
            q.consume(
                    d -> {
                        Instant now = Instant.now();
                        if (now.isBefore(due.get(d.payload()))) {
                            early.add(d.payload());
                        }
                        firstReceipt.putIfAbsent(d.payload(), now);
                    },
                    ConsumeOptions.builder()
                            .concurrency(4)
                            .batchSize(20)
                            .pollTimeout(Duration.ofMillis(500))
                            .build());

            await().atMost(Duration.ofSeconds(20)).until(() -> firstReceipt.size() >= MESSAGES / 6);
            Instant killedAt = Instant.now();
            server.kill();
            Thread.sleep(1_000); // the outage: messages fall due while the server is down
            server.restart();
            Instant restartedAt = Instant.now();

            await().atMost(Duration.ofSeconds(30)).until(() -> firstReceipt.size() == MESSAGES);

            assertThat(early).as("delivered before due").isEmpty();
            long firstAfterRestart = firstReceipt.values().stream()
                    .filter(t -> t.isAfter(restartedAt))
                    .mapToLong(t -> Duration.between(restartedAt, t).toMillis())
                    .min()
                    .orElseThrow();
            List<Long> dueDuringOutage = new ArrayList<>();
            List<Long> dueAfterRestart = new ArrayList<>();
            for (Map.Entry<String, Instant> e : due.entrySet()) {
                Instant got = firstReceipt.get(e.getKey());
                if (e.getValue().isAfter(killedAt) && e.getValue().isBefore(restartedAt)) {
                    dueDuringOutage.add(Duration.between(restartedAt, got).toMillis());
                } else if (e.getValue().isAfter(restartedAt)) {
                    dueAfterRestart.add(Duration.between(e.getValue(), got).toMillis());
                }
            }
            assertThat(dueDuringOutage)
                    .as("messages that fell due during the outage")
                    .isNotEmpty();
            assertThat(dueAfterRestart).as("messages due after the restart").isNotEmpty();
            System.out.printf(
                    "SIGKILL + restart with AOF: all %d delivered, none early; outage %d ms; "
                            + "first delivery %d ms after the restart; "
                            + "%d fell due meanwhile, delivered at most %d ms after the restart; "
                            + "%d due after it, at most %d ms late (median %d ms)%n",
                    MESSAGES,
                    Duration.between(killedAt, restartedAt).toMillis(),
                    firstAfterRestart,
                    dueDuringOutage.size(),
                    dueDuringOutage.stream().mapToLong(Long::longValue).max().orElse(0),
                    dueAfterRestart.size(),
                    dueAfterRestart.stream().mapToLong(Long::longValue).max().orElse(0),
                    dueAfterRestart.stream().sorted().toList().get(dueAfterRestart.size() / 2));
        }
    }
}
