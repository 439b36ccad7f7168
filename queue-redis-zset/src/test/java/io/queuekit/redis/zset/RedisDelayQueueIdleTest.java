package io.queuekit.redis.zset;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * What an idle queue object costs Redis: one of its waiting consumers blocks on the wake-up list at
 * a time, the others wait in the JVM (rule 9 of {@code docs/wake-up-protocol.md}), and it claims
 * once per horizon. Counted by a server of its own, in round trips it read.
 */
@RedisServerTest(server = PER_CLASS)
class RedisDelayQueueIdleTest {
    private static final Duration WINDOW = Duration.ofSeconds(10);
    /**
     * Round trips allowed in the window: about one block a second (one consumer blocking for up to
     * its block timeout) and a claim per horizon, with room for a busy host. Each of ten consumers
     * blocking, and reading the list at its poll's deadline, made about 200.
     */
    private static final long BOUND = 30;

    private final RedisClient client;

    RedisDelayQueueIdleTest(RedisClient client) {
        this.client = client;
    }

    @Test
    @Timeout(60)
    void tenIdleConsumersOfOneObject_makeAboutOneCallASecond() {
        try (RedisDelayQueue<String> q =
                        RedisDelayQueue.builder(client, "idle", Codec.utf8()).build();
                Subscription consumers = q.consume(
                        d -> {}, ConsumeOptions.builder().concurrency(10).build())) {
            // past the first claims, once a block on the wake-up list has ended
            await().atMost(Duration.ofSeconds(10)).until(() -> RedisClients.commandCalls(client, "blpop") > 0);
            RedisClients.RoundTrips trips = RedisClients.roundTrips(client);

            await().during(WINDOW)
                    .atMost(WINDOW.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> trips.count() <= BOUND);

            long calls = trips.count();
            System.out.printf("ten idle consumers of one delay queue object: %d round trips in %s%n", calls, WINDOW);
            assertThat(calls)
                    .as("round trips of ten idle consumers in " + WINDOW)
                    .isLessThanOrEqualTo(BOUND);
            assertThat(consumers.isActive()).isTrue();
        }
    }
}
