package io.queuekit.redis.zset;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import redis.clients.jedis.RedisClient;

/**
 * The races of the wake-up protocol ({@code docs/wake-up-protocol.md}) that users met on a real
 * server: two consumers of one queue object racing a wake-up, an object whose poll times out (or
 * that closes) while it holds one, a poll that ends just after a send. Each made a message seconds
 * late, or a poll return empty-handed, before the protocol handed wake-ups on. The server runs at
 * {@code hz 100}, so that a blocking call ends within 10 ms of its timeout and what a test sends in
 * the last tick of a poll is sent while that poll sleeps in the JVM, not while it blocks. It bounds
 * how late each message comes, so it runs alone: the build gives it a JVM of its own.
 */
@Isolated
@Timeout(value = 90, unit = SECONDS)
class RedisDelayQueueWakeUpTest {
    /** Far below the seconds these races cost, far above what a busy host adds to the bound. */
    private static final Duration ON_TIME = Duration.ofMillis(1_000);

    private static RedisServer server;
    private static RedisClient client;
    private final List<AutoCloseable> closeAfter = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void start() {
        server = RedisServer.builder().config("hz", "100").start();
        // 4 MiB payloads on a busy host: reads get time enough
        client = RedisClients.builder(server)
                .poolSize(16)
                .socketTimeout(Duration.ofSeconds(10))
                .blockingSocketTimeout(Duration.ofSeconds(15))
                .build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
        threads.shutdownNow();
    }

    private RedisDelayQueue<String> queue(String name) {
        RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                .maxPayloadBytes(8 << 20)
                .build();
        closeAfter.add(q);
        return q;
    }

    private static long lateMillis(Instant due, long deliveredAtMillis) {
        return deliveredAtMillis - due.toEpochMilli();
    }

    @Test
    void twoConsumersOfOneObject_racingAWakeUp_deliverOnTime() throws Exception {
        RedisDelayQueue<String> q = queue("race-" + UUID.randomUUID());
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        closeAfter.add(q.consume(
                d -> deliveredAt.put(
                        d.payload().substring(0, Math.min(8, d.payload().length())), System.currentTimeMillis()),
                ConsumeOptions.builder()
                        .concurrency(2)
                        .pollTimeout(Duration.ofMillis(300))
                        .build()));
        String big = "b".repeat(4 << 20); // its claim's reply is slow to come back
        List<Long> lateness = new ArrayList<>();
        for (int trial = 0; trial < 6; trial++) {
            String tag = String.format("due%05d", trial);
            q.send(big);
            Instant due = Instant.now().plusMillis(1_200);
            q.scheduleAt(tag, due); // its wake-up reaches the other consumer while the claim's reply travels
            await().atMost(Duration.ofSeconds(15)).until(() -> deliveredAt.containsKey(tag));
            lateness.add(lateMillis(due, deliveredAt.get(tag)));
        }
        assertThat(lateness)
                .as("ms late, each trial")
                .allSatisfy(ms -> assertThat(ms).isLessThan(ON_TIME.toMillis()));
    }

    @Test
    void anObjectWhosePollTimesOutHoldingAWakeUp_handsItToAnotherObjectsIdleConsumer() throws Exception {
        String name = "handon-" + UUID.randomUUID();
        RedisDelayQueue<String> x = queue(name);
        RedisDelayQueue<String> y = queue(name);
        x.poll(); // both objects have claimed: both trust that nothing comes without a wake-up
        y.poll();
        long pollStart = System.nanoTime();
        Future<Delivery<String>> xPoll = threads.submit(() -> x.poll(3_000, MILLISECONDS));
        awaitBlocked(1);
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        closeAfter.add(y.consume(
                d -> deliveredAt.put(d.payload(), System.currentTimeMillis()),
                ConsumeOptions.builder().concurrency(1).build()));
        awaitBlocked(2); // x blocked first: the server hands it the wake-up

        Instant due = Instant.now().plusMillis(3_500 - (System.nanoTime() - pollStart) / 1_000_000);
        y.scheduleAt("m", due); // due half a second after x's poll ends

        assertThat(xPoll.get(5, SECONDS))
                .as("x's poll ended before the message was due")
                .isNull();
        await().atMost(Duration.ofSeconds(15)).until(() -> deliveredAt.containsKey("m"));
        assertThat(lateMillis(due, deliveredAt.get("m"))).as("ms late").isLessThan(ON_TIME.toMillis());
    }

    @Test
    void anObjectThatClosesHoldingAWakeUp_handsItToAnotherObjectsIdleConsumer() throws Exception {
        String name = "closing-" + UUID.randomUUID();
        RedisDelayQueue<String> x = queue(name);
        RedisDelayQueue<String> y = queue(name);
        y.poll();
        List<String> xGot = new CopyOnWriteArrayList<>();
        closeAfter.add(x.consume(
                d -> xGot.add(d.payload()),
                ConsumeOptions.builder().concurrency(1).build()));
        awaitBlocked(1);
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        closeAfter.add(y.consume(
                d -> deliveredAt.put(d.payload(), System.currentTimeMillis()),
                ConsumeOptions.builder().concurrency(1).build()));
        awaitBlocked(2);

        Instant due = Instant.now().plusMillis(2_500);
        y.scheduleAt("m", due);
        x.close(); // a rolling deploy: x, which the server handed the wake-up, stops before the message is due

        await().atMost(Duration.ofSeconds(15)).until(() -> deliveredAt.containsKey("m"));
        assertThat(xGot).isEmpty();
        assertThat(lateMillis(due, deliveredAt.get("m"))).as("ms late").isLessThan(ON_TIME.toMillis());
    }

    @Test
    void aPoll_returnsAMessageSentInItsLastTick() throws Exception {
        RedisDelayQueue<String> q = queue("last-tick-" + UUID.randomUUID());
        q.poll();
        int counted = 0;
        for (int trial = 0; trial < 20 && counted < 5; trial++) {
            long start = System.nanoTime();
            Future<Delivery<String>> poll = threads.submit(() -> q.poll(600, MILLISECONDS));
            // the poll blocks until 100 ms before its end, then sleeps that tick in the JVM
            await().pollInterval(Duration.ofMillis(1))
                    .until(() -> System.nanoTime() - start > MILLISECONDS.toNanos(540));
            MessageId sent = q.send("late-" + trial);
            boolean sentWhilePolling = !poll.isDone();
            Delivery<String> got = poll.get(5, SECONDS);
            if (!sentWhilePolling) {
                // a slow host stored it after the poll had answered: this trial shows nothing
                if (got == null) {
                    Delivery<String> d = q.poll(5, SECONDS);
                    assertThat(d).isNotNull();
                    d.ack();
                } else {
                    got.ack();
                }
                continue;
            }
            counted++;
            assertThat(got).as("trial " + trial + ": the poll's answer").isNotNull();
            assertThat(got.id()).isEqualTo(sent);
            got.ack();
        }
        assertThat(counted)
                .as("trials where the send returned while the poll waited")
                .isEqualTo(5);
    }

    /** Waits until {@code n} clients are blocked on the server. */
    private static void awaitBlocked(int n) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> {
            String info = client.info("clients");
            for (String line : info.split("\r?\n")) {
                if (line.startsWith("blocked_clients:")) {
                    return Integer.parseInt(line.substring(16).trim()) >= n;
                }
            }
            return false;
        });
    }
}
