package io.queuekit.redis.zset;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Pausing a delay queue across queue objects, as processes share it: the pause is stored in Redis,
 * the claim script reads it, a consumer of another object waiting on the wake-up list when the pause
 * came stops at its next claim and hands on what it owed, and a paused object re-reads the pause
 * about once a second (rule 11 of {@code docs/wake-up-protocol.md}). On a server of its own, whose
 * round trips the idle test counts.
 */
@RedisServerTest(server = PER_CLASS)
@Timeout(60)
class RedisDelayQueuePauseTest {
    private final RedisClient client;

    RedisDelayQueuePauseTest(RedisClient client) {
        this.client = client;
    }

    private RedisDelayQueue<String> queue(String name) {
        return RedisDelayQueue.builder(client, name, Codec.utf8())
                .visibilityTimeout(Duration.ofSeconds(1))
                .blockTimeout(Duration.ofMillis(200))
                .build();
    }

    private static String unique(String what) {
        return what + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void anotherObjectOnTheQueue_seesThePauseAtOnce_andTheResume() throws Exception {
        String name = unique("pause-seen");
        try (RedisDelayQueue<String> a = queue(name);
                RedisDelayQueue<String> b = queue(name)) {
            b.send("kept");

            a.pause();

            assertThat(b.isPaused()).as("the other object").isTrue();
            assertThat(b.poll()).as("a poll of the other object").isNull();
            assertThat(b.poll(300, MILLISECONDS)).isNull();
            b.schedule("due while paused", Duration.ofMillis(50));
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(b.stats()).isEqualTo(new QueueStats(2, 0, 0, 0, true)));
            assertThat(client.exists("queuekit:{" + name + "}:paused")).isTrue();

            a.resume();

            assertThat(payload(b.poll(5, SECONDS))).isEqualTo("kept");
            assertThat(payload(b.poll(5, SECONDS))).isEqualTo("due while paused");
        }
    }

    @Test
    void aConsumerWaitingInAnotherObject_whenThePauseCame_getsEverythingAfterTheResume() throws Exception {
        String name = unique("pause-waiting");
        List<String> handled = new CopyOnWriteArrayList<>();
        try (RedisDelayQueue<String> producer = queue(name);
                RedisDelayQueue<String> consumer = queue(name);
                Subscription s = consumer.consume(
                        d -> handled.add(d.payload()),
                        ConsumeOptions.builder().concurrency(1).build())) { // one: handled as handed out
            producer.send("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("before"));

            producer.pause(); // the consumer's object waits on the wake-up list, unaware
            producer.send("m0");
            producer.schedule("m1", Duration.ofMillis(100));
            producer.schedule("m2", Duration.ofMillis(200));

            await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(() -> handled.size() == 1);

            producer.resume(); // the consumer's object learns it by its next read, within about a second

            await().atMost(Duration.ofSeconds(5)).until(() -> handled.size() == 4);
            assertThat(handled).containsExactly("before", "m0", "m1", "m2");
            assertThat(s.isActive()).isTrue();
        }
    }

    @Test
    void tenConsumersOfAPausedObject_readThePauseAboutOnceASecond() throws Exception {
        String name = unique("pause-idle");
        try (RedisDelayQueue<String> q =
                        RedisDelayQueue.builder(client, name, Codec.utf8()).build();
                Subscription s = q.consume(
                        d -> {}, ConsumeOptions.builder().concurrency(10).build())) {
            q.pause();
            q.send("kept");
            long reads = RedisClients.commandCalls(client, "exists");
            await().atMost(Duration.ofSeconds(10)) // settled: the object re-reads the pause
                    .until(() -> RedisClients.commandCalls(client, "exists") >= reads + 2);
            RedisClients.RoundTrips trips = RedisClients.roundTrips(client);
            Duration window = Duration.ofSeconds(10);
            await().during(window)
                    .atMost(window.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> trips.count() <= 15);

            long calls = trips.count();
            System.out.printf("ten consumers of a paused delay queue object: %d round trips in %s%n", calls, window);
            assertThat(calls)
                    .as("round trips of ten paused consumers in " + window)
                    .isLessThanOrEqualTo(15);
            assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0, true));
            assertThat(s.isActive()).isTrue();
        }
    }

    private static String payload(Delivery<String> d) {
        assertThat(d).isNotNull();
        d.ack();
        return d.payload();
    }
}
