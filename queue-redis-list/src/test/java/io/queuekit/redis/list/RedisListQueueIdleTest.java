package io.queuekit.redis.list;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * What an idle list queue object costs Redis: once a block of its ended with nothing, one of its
 * waiting receives blocks on the list at a time and the others wait in the JVM, stirred when it
 * takes a message or leaves (the list queue's section of {@code docs/wake-up-protocol.md}).
 * Counted by a server of its own, in round trips it read.
 */
@RedisServerTest(server = PER_CLASS)
class RedisListQueueIdleTest {
    private static final Duration WINDOW = Duration.ofSeconds(10);
    /**
     * Round trips allowed in the window: one or two blocks a second (one consumer blocking for up
     * to its block timeout, cut where the upkeep falls due) and the upkeep about once per block
     * timeout, 20 to 32 measured, with room for a busy host. Each of ten consumers blocking in its
     * own BLMOVE or BRPOP made over 100.
     */
    private static final long BOUND = 40;

    private final RedisClient client;

    RedisListQueueIdleTest(RedisClient client) {
        this.client = client;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    @Timeout(60)
    void tenIdleConsumersOfOneObject_makeAFewCallsASecond(Guarantee guarantee) {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("idle"), Codec.utf8())
                        .guarantee(guarantee)
                        .build();
                Subscription consumers = q.consume(
                        d -> {}, ConsumeOptions.builder().concurrency(10).build())) {
            settle();
            RedisClients.RoundTrips trips = RedisClients.roundTrips(client);
            await().during(WINDOW)
                    .atMost(WINDOW.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> trips.count() <= BOUND);

            long calls = trips.count();
            System.out.printf(
                    "ten idle consumers of one list queue object (%s): %d round trips in %s%n",
                    guarantee, calls, WINDOW);
            assertThat(calls)
                    .as("round trips of ten idle consumers in " + WINDOW)
                    .isLessThanOrEqualTo(BOUND);
            assertThat(consumers.isActive()).isTrue();
        }
    }

    @Test
    @Timeout(60)
    void aMessageSentToAnIdleObject_isDeliveredAtOnce() throws InterruptedException {
        CountDownLatch got = new CountDownLatch(1);
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("idle-send"), Codec.utf8())
                        .build();
                Subscription ignored = q.consume(
                        d -> got.countDown(),
                        ConsumeOptions.builder().concurrency(10).build())) {
            settle();
            long sent = System.nanoTime();
            q.send("one");

            assertThat(got.await(10, TimeUnit.SECONDS)).isTrue();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            System.out.printf("a message sent to an idle list queue object: delivered in %d ms%n", millis);
            // the one blocking takes it at once; none blocking, it would wait for a receive to begin
            assertThat(millis).as("ms from send to delivery").isLessThan(500);
        }
    }

    @Test
    @Timeout(60)
    void aBurstAfterIdle_isSharedByConsumers() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch three = new CountDownLatch(3);
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("idle-burst"), Codec.utf8())
                        .build();
                Subscription ignored = q.consume(
                        d -> {
                            threads.add(Thread.currentThread().getName());
                            three.countDown();
                            // holds its consumer until three run at once (bounded), so others must take the rest
                            three.await(5, TimeUnit.SECONDS);
                        },
                        ConsumeOptions.builder().concurrency(10).build())) {
            settle();
            q.sendAll(Collections.nCopies(10, "burst"));

            await().atMost(Duration.ofSeconds(3)).until(() -> three.getCount() == 0);
            assertThat(threads).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    /** Until the object is idle: past its first receives, whose blocks ended with nothing. */
    private void settle() {
        long blocks = RedisClients.commandCalls(client, "blmove") + RedisClients.commandCalls(client, "brpop");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> RedisClients.commandCalls(client, "blmove") + RedisClients.commandCalls(client, "brpop")
                        >= blocks + 12);
    }
}
