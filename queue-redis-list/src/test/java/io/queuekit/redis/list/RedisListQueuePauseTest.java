package io.queuekit.redis.list;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.QueueStats;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * Pausing a list queue across queue objects, as processes share it: the pause is stored in Redis,
 * a receive of any object that starts after {@code pause()} returned hands out nothing, a consumer
 * of another object blocked when the pause came gives back what it takes, and a paused object
 * re-reads the pause about once a second (rule 11 of {@code docs/wake-up-protocol.md}). On a server
 * of its own, whose round trips the idle test counts.
 */
@RedisServerTest(server = PER_CLASS)
@Timeout(60)
class RedisListQueuePauseTest {
    private final RedisClient client;

    RedisListQueuePauseTest(RedisClient client) {
        this.client = client;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void anotherObjectOnTheQueue_seesThePauseAtOnce_andTheResume(Guarantee guarantee) throws Exception {
        String name = Queues.unique("pause-seen");
        try (RedisListQueue<String> a = Queues.strings(client, name, guarantee);
                RedisListQueue<String> b = Queues.strings(client, name, guarantee)) {
            b.send("kept");
            assertThat(b.isPaused()).isFalse();

            a.pause();

            assertThat(b.isPaused()).as("the other object").isTrue();
            assertThat(b.poll()).as("a poll of the other object").isNull();
            assertThat(b.pollBatch(10, 0, MILLISECONDS)).isEmpty();
            assertThat(b.poll(300, MILLISECONDS)).isNull();
            b.send("sent while paused");
            assertThat(b.stats()).isEqualTo(new QueueStats(2, 0, 0, 0, true));
            assertThat(client.exists(Queues.key(name, "paused"))).isTrue();

            a.resume();

            assertThat(b.isPaused()).isFalse();
            assertThat(payload(b.poll(5, SECONDS))).isEqualTo("kept");
            assertThat(payload(b.poll(5, SECONDS))).isEqualTo("sent while paused");
            assertThat(client.exists(Queues.key(name, "paused"))).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void aConsumerBlockedInAnotherObject_whenThePauseCame_givesBackWhatItTakes_andGetsItAllAfterTheResume(
            Guarantee guarantee) throws Exception {
        String name = Queues.unique("pause-blocked");
        List<String> handled = new CopyOnWriteArrayList<>();
        try (RedisListQueue<String> producer = Queues.strings(client, name, guarantee);
                RedisListQueue<String> consumer = Queues.strings(client, name, guarantee);
                Subscription s = consumer.consume(
                        d -> handled.add(d.payload()),
                        ConsumeOptions.builder().concurrency(3).build())) {
            producer.send("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("before"));

            producer.pause(); // the consumer's workers are blocked on the list, unaware
            producer.sendAll(List.of("m0", "m1", "m2"));
            producer.send("m3");

            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> handled.size() == 1);
            assertThat(producer.stats()).isEqualTo(new QueueStats(4, 0, 0, 0, true));

            producer.resume(); // the consumer's object learns it by its next read, within about a second

            await().atMost(Duration.ofSeconds(5)).until(() -> handled.size() == 5);
            assertThat(handled).containsExactlyInAnyOrder("before", "m0", "m1", "m2", "m3");
            assertThat(s.isActive()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void tenConsumersOfAPausedObject_readThePauseAboutOnceASecond(Guarantee guarantee) throws Exception {
        String name = Queues.unique("pause-idle");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                        .guarantee(guarantee)
                        .build();
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
            System.out.printf(
                    "ten consumers of a paused list queue object (%s): %d round trips in %s%n",
                    guarantee, calls, window);
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
