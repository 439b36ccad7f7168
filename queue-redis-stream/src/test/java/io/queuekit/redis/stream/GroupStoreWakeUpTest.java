package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * Rule 12 of docs/wake-up-protocol.md: a receive blocked in {@code XREAD} wakes for a publish at
 * once, and for a lease expiry or a retry falling due that its claim knew of, without a publish.
 * The block timeout is long (5 s) and each wait must end well within it (2.5 s). On a server of
 * its own, whose CLIENT LIST shows this class's blocked reads alone.
 */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest(server = RedisServerTest.Server.PER_CLASS)
class GroupStoreWakeUpTest {
    private static final Duration BLOCK = Duration.ofSeconds(5);
    private static final long WELL_WITHIN_NANOS = SECONDS.toNanos(5) / 2;

    private final RedisClient client;
    private final List<AutoCloseable> closeAfter = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    GroupStoreWakeUpTest(RedisClient client) {
        this.client = client;
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private ConsumerGroup<String> group(Duration lease) {
        RedisStreamTopic<String> t = RedisStreamTopic.builder(client, "wake-test-" + UUID.randomUUID(), Codec.utf8())
                .blockTimeout(BLOCK)
                .visibilityTimeout(lease)
                .build();
        closeAfter.add(t);
        return t.group("g");
    }

    /** A poll of up to 20 s on another thread, once it is blocked in XREAD (or has returned already). */
    private CompletableFuture<Delivery<String>> pollInBackground(ConsumerGroup<String> g) {
        long before = blockedReads();
        CompletableFuture<Delivery<String>> f = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return g.poll(20, SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        await().atMost(10, SECONDS).until(() -> f.isDone() || blockedReads() > before);
        return f;
    }

    private long blockedReads() {
        String list = new String(
                (byte[]) client.executeCommand(new CommandArguments(Protocol.Command.CLIENT).addObjects("LIST")),
                StandardCharsets.UTF_8);
        return list.lines().filter(l -> l.contains("cmd=xread ")).count();
    }

    @Test
    void aBlockedReceive_wakesForAPublish_atOnce() throws Exception {
        ConsumerGroup<String> g = group(Duration.ofSeconds(30));
        CompletableFuture<Delivery<String>> polled = pollInBackground(g);
        long start = System.nanoTime();

        g.send("m");

        Delivery<String> d = polled.get(10, SECONDS);
        assertThat(System.nanoTime() - start).isLessThan(WELL_WITHIN_NANOS);
        assertThat(d.payload()).isEqualTo("m");
    }

    @Test
    void aBlockedReceive_wakesForALeaseThatExpires_withoutAPublish() throws Exception {
        ConsumerGroup<String> g = group(Duration.ofMillis(300));
        g.send("m");
        Delivery<String> abandoned = g.poll(5, SECONDS);
        long start = System.nanoTime();

        Delivery<String> again = pollInBackground(g).get(10, SECONDS);

        assertThat(System.nanoTime() - start).isLessThan(WELL_WITHIN_NANOS);
        assertThat(again.id()).isEqualTo(abandoned.id());
        assertThat(again.attempt()).isEqualTo(2);
    }

    @Test
    void aBlockedReceive_wakesForARetryFallingDue_withoutAPublish() throws Exception {
        ConsumerGroup<String> g = group(Duration.ofSeconds(30));
        g.send("m");
        long start = System.nanoTime();
        assertThat(g.poll(5, SECONDS).retry(Duration.ofMillis(300))).isTrue();

        Delivery<String> again = pollInBackground(g).get(10, SECONDS);

        long took = System.nanoTime() - start;
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
        assertThat(took).isLessThan(WELL_WITHIN_NANOS);
        assertThat(again.attempt()).isEqualTo(2);
    }
}
