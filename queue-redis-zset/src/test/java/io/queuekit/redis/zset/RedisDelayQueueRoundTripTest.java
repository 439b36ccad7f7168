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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Round trips a managed consumer makes per message, counted by the server: one of its own, so that
 * the counts see only this class while other classes run beside it.
 */
@RedisServerTest(server = PER_CLASS)
class RedisDelayQueueRoundTripTest {
    private static final int COUNT = 500;
    private final RedisClient client;

    RedisDelayQueueRoundTripTest(RedisClient client) {
        this.client = client;
    }

    @Test
    @Timeout(60)
    void aManagedConsumer_acksWithItsNextClaim_inOneRoundTripAndOneScriptCall() {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, "trips-" + UUID.randomUUID(), Codec.utf8())
                .build()) {
            q.sendAll(IntStream.range(0, COUNT).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            AtomicInteger handled = new AtomicInteger();
            long before = RedisClients.readsProcessed(client);
            long scriptsBefore = RedisClients.commandCalls(client, "evalsha");

            Subscription consumer = q.consume(
                    d -> handled.incrementAndGet(),
                    ConsumeOptions.builder().concurrency(1).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == COUNT);
            consumer.close();
            long reads = RedisClients.readsProcessed(client) - before;
            long scripts = RedisClients.commandCalls(client, "evalsha") - scriptsBefore;

            assertThat(q.stats().total()).as("every message acked").isZero();
            // an ack of its own would make it two reads per message, one with the claim one
            assertThat(reads)
                    .as("commands read by the server, one read per round trip")
                    .isLessThan(COUNT * 5 / 4);
            // the claim's script makes the ack: a script of its own would make it two calls per message
            assertThat(scripts).as("script calls").isLessThan(COUNT * 5 / 4);
        }
    }

    @Test
    @Timeout(60)
    void aBatchConsumer_acksEachBatchWithItsNextClaim_inOneScriptCallPerBatch() {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, "batches-" + UUID.randomUUID(), Codec.utf8())
                .build()) {
            q.sendAll(IntStream.range(0, COUNT).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            AtomicInteger handled = new AtomicInteger();
            long scriptsBefore = RedisClients.commandCalls(client, "evalsha");

            Subscription consumer = q.consume(
                    d -> handled.incrementAndGet(),
                    ConsumeOptions.builder().concurrency(1).batchSize(10).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == COUNT);
            consumer.close();
            long scripts = RedisClients.commandCalls(client, "evalsha") - scriptsBefore;

            assertThat(q.stats().total()).as("every message acked").isZero();
            // 50 batches: an ack script of their own would make it 100 calls, a claim each and an ack each
            assertThat(scripts).as("script calls").isLessThan(COUNT / 10 * 5 / 4);
        }
    }

    @Test
    @Timeout(60)
    void anAckTravellingWithAClaim_stillAcks_whenTheServerForgotTheScripts() {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, "flushed-" + UUID.randomUUID(), Codec.utf8())
                .build()) {
            AtomicInteger handled = new AtomicInteger();
            Subscription consumer = q.consume(
                    d -> {
                        if (handled.incrementAndGet() == 1) {
                            client.scriptFlush(); // this message's ack and the next claim are sent as EVALSHA of
                            // scripts now gone
                        }
                    },
                    ConsumeOptions.builder().concurrency(1).build());

            q.send("first");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.get() == 1);
            q.send("second");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.get() == 2);
            consumer.close();

            assertThat(q.stats().total())
                    .as("both acked, none waits for its lease")
                    .isZero();
            assertThat(handled).hasValue(2);
        }
    }
}
