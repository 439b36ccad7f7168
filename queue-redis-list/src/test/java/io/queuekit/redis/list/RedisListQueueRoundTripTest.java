package io.queuekit.redis.list;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
class RedisListQueueRoundTripTest {
    private static final int COUNT = 500;
    private final RedisClient client;

    RedisListQueueRoundTripTest(RedisClient client) {
        this.client = client;
    }

    @Test
    @Timeout(60)
    void aManagedConsumer_acksWithItsNextFetch_inOneRoundTrip() {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("trips"), Codec.utf8())
                .build()) {
            q.sendAll(IntStream.range(0, COUNT).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            AtomicInteger handled = new AtomicInteger();
            long before = RedisClients.readsProcessed(client);
            long scriptsBefore = RedisClients.commandCalls(client, "evalsha");

            // one at a time, as consume() fetches while messages do not wait (a backlog it takes in batches)
            Subscription consumer = q.consume(
                    d -> handled.incrementAndGet(),
                    ConsumeOptions.builder().concurrency(1).batchSize(1).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == COUNT);
            consumer.close();
            long reads = RedisClients.readsProcessed(client) - before;
            long scripts = RedisClients.commandCalls(client, "evalsha") - scriptsBefore;

            assertThat(q.stats().total()).as("every message acked").isZero();
            // an ack of its own would make it two reads per message, one with the fetch one
            assertThat(reads)
                    .as("commands read by the server, one read per round trip")
                    .isLessThan(COUNT * 5 / 4);
            // a message taken alone and not yet moved by an upkeep is acked by a plain LREM: scripts
            // are the upkeep's, about one per block timeout, and acks of what an upkeep moved
            assertThat(scripts)
                    .as("scripts run while acking " + COUNT + " messages")
                    .isLessThan(COUNT / 10);
        }
    }

    @Test
    @Timeout(60)
    void aBatchConsumer_acksEachBatchWithItsNextClaim_inOneScriptCallPerBatch() {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("batches"), Codec.utf8())
                .build()) {
            q.sendAll(IntStream.range(0, COUNT).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            AtomicInteger handled = new AtomicInteger();
            long before = RedisClients.readsProcessed(client);
            long scriptsBefore = RedisClients.commandCalls(client, "evalsha");

            Subscription consumer = q.consume(
                    d -> handled.incrementAndGet(),
                    ConsumeOptions.builder().concurrency(1).batchSize(10).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == COUNT);
            consumer.close();
            long reads = RedisClients.readsProcessed(client) - before;
            long scripts = RedisClients.commandCalls(client, "evalsha") - scriptsBefore;

            assertThat(q.stats().total()).as("every message acked").isZero();
            // 50 batches: an ack script of their own would make it 100 calls, a claim each and an ack each
            assertThat(scripts).as("script calls").isLessThan(COUNT / 10 * 5 / 4);
            assertThat(reads).as("round trips").isLessThan(COUNT / 10 * 5 / 4);
        }
    }

    @Test
    @Timeout(60)
    void aManagedConsumer_withLessThanTwoBlockTimeoutsOfLease_sendsTheAckScriptAheadOfItsFetch() {
        // an LREM's reply is read with the blocking fetch's, so an ack it missed would finish up to
        // a block timeout later: too late for a lease this short, so the script goes ahead instead
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("short-lease"), Codec.utf8())
                .visibilityTimeout(Duration.ofMillis(1500))
                .blockTimeout(Duration.ofSeconds(1))
                .build()) {
            q.sendAll(IntStream.range(0, 50).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            AtomicInteger handled = new AtomicInteger();
            long scripts = RedisClients.commandCalls(client, "evalsha");

            Subscription consumer = q.consume(
                    d -> handled.incrementAndGet(),
                    ConsumeOptions.builder().concurrency(1).batchSize(1).build());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> handled.get() == 50 && q.stats().total() == 0);
            consumer.close();

            // an ack by LREM runs no script (LREMs are no measure: the ack script makes one too)
            assertThat(RedisClients.commandCalls(client, "evalsha") - scripts)
                    .as("scripts run")
                    .isGreaterThanOrEqualTo(50);
        }
    }

    @Test
    @Timeout(60)
    void aManagedConsumer_whoseOwnUpkeepMovesItsMessage_sendsNoLremThatFindsNothing() {
        String name = Queues.unique("own-upkeep");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(100))
                .build()) {
            AtomicInteger handled = new AtomicInteger();
            Subscription consumer = q.consume(
                    d -> {
                        // this worker ran an upkeep at most a block timeout before the fetch; once three
                        // have passed, its next fetch runs one first, which moves this message into 'held'
                        long start = System.nanoTime();
                        await().atMost(Duration.ofSeconds(5))
                                .pollInterval(Duration.ofMillis(10))
                                .until(() -> System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(300));
                        handled.incrementAndGet();
                    },
                    ConsumeOptions.builder().concurrency(1).batchSize(1).build());
            long lrems = RedisClients.commandCalls(client, "lrem");

            q.send("slow");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> handled.get() == 1
                            && client.llen(Queues.key(name, "claiming")) == 0
                            && client.hlen(Queues.key(name, "held")) == 0);
            consumer.close();

            // the ack script finds it in 'held' without an LREM of its own
            assertThat(RedisClients.commandCalls(client, "lrem") - lrems)
                    .as("LREMs sent")
                    .isZero();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    @Timeout(60)
    void anAckOfADeliveryWhoseLeaseWasExtended_leavesNoLeaseBehind() throws Exception {
        String name = Queues.unique("extended");
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            // by hand: an extension starts a lease before any upkeep, which the ack must end
            q.send("by hand");
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            assertThat(d.extendLease(Duration.ofMinutes(5))).isTrue();
            assertThat(client.zcard(Queues.key(name, "inflight")))
                    .as("the extension's lease")
                    .isOne();
            assertThat(d.ack()).isTrue();
            assertThat(client.zcard(Queues.key(name, "inflight")))
                    .as("no lease left after the ack")
                    .isZero();

            // a managed consumer, whose ack travels with its next fetch
            AtomicInteger handled = new AtomicInteger();
            Subscription consumer = q.consume(
                    m -> {
                        m.extendLease(Duration.ofMinutes(5));
                        handled.incrementAndGet();
                    },
                    ConsumeOptions.builder().concurrency(1).build());
            q.send("managed");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> handled.get() == 1 && q.stats().total() == 0);
            consumer.close();

            assertThat(client.zcard(Queues.key(name, "inflight")))
                    .as("no lease left after the managed ack")
                    .isZero();
            assertThat(client.llen(Queues.key(name, "claiming")))
                    .as("nothing left in claiming")
                    .isZero();
        }
    }

    @Test
    @Timeout(60)
    void anAckByHand_findsWhatAnotherInstancesUpkeepHeldMeanwhile() throws Exception {
        String name = Queues.unique("held-by-hand");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                        .blockTimeout(Duration.ofMillis(100))
                        .build();
                RedisListQueue<String> other = RedisListQueue.builder(client, name, Codec.utf8())
                        .blockTimeout(Duration.ofMillis(100))
                        .build()) {
            q.send("slow");
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            // an upkeep of another instance (stats runs one when due) moves it from 'claiming' into
            // 'held', unknown to this one: its ack tries 'claiming' first
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> other.stats().inFlight() == 1 && client.hlen(Queues.key(name, "held")) == 1);
            long lrems = RedisClients.commandCalls(client, "lrem");

            assertThat(d.ack()).as("acked where the upkeep put it").isTrue();
            assertThat(RedisClients.commandCalls(client, "lrem") - lrems)
                    .as("an LREM that found nothing first")
                    .isOne();
            assertThat(d.ack()).as("a second ack finds nothing").isFalse();
            assertThat(client.hlen(Queues.key(name, "held")))
                    .as("nothing left held")
                    .isZero();
            assertThat(client.zcard(Queues.key(name, "inflight")))
                    .as("no lease left")
                    .isZero();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    @Timeout(60)
    void anAckByHand_ofWhatCannotBeInClaiming_runsTheScriptAlone() throws Exception {
        String name = Queues.unique("held-own");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(100))
                .build()) {
            q.sendAll(List.of("slow", "batch 1", "batch 2"));
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            // this instance's own upkeep moves it into 'held': its ack knows that without an LREM
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> q.stats().inFlight() == 1 && client.hlen(Queues.key(name, "held")) == 1);
            // a batch take puts its messages into 'held' at once
            List<Delivery<String>> batch = q.pollBatch(2, 5, TimeUnit.SECONDS);
            assertThat(batch).hasSize(2);
            long lrems = RedisClients.commandCalls(client, "lrem");

            assertThat(d.ack()).as("acked where the upkeep put it").isTrue();
            assertThat(batch.get(0).ack())
                    .as("a batch-taken delivery acked alone")
                    .isTrue();
            assertThat(batch.get(1).ack()).isTrue();
            assertThat(RedisClients.commandCalls(client, "lrem") - lrems)
                    .as("LREMs sent")
                    .isZero();
            assertThat(client.hlen(Queues.key(name, "held")))
                    .as("nothing left held")
                    .isZero();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    @Timeout(60)
    void anAckTravellingWithAFetch_stillAcks_whenTheServerForgotTheScript() {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("flushed"), Codec.utf8())
                .build()) {
            AtomicInteger handled = new AtomicInteger();
            Subscription consumer = q.consume(
                    d -> {
                        if (handled.incrementAndGet() == 1) {
                            // an extended delivery's ack is the ack script: sent as EVALSHA of a script now gone
                            d.extendLease(Duration.ofMinutes(1));
                            client.scriptFlush();
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

    @Test
    @Timeout(60)
    void anAckTravellingWithAFetch_stillAcks_whatTheUpkeepHeldMeanwhile() {
        String name = Queues.unique("held");
        // the consumer's own upkeep must not run between its take and its ack (it would move the
        // message itself, and the ack would skip the LREM): it runs first thing in the fetch that
        // takes the message, and next a block timeout later, long after this ack; the other
        // instance sweeps whenever asked
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                        .blockTimeout(Duration.ofSeconds(2))
                        .build();
                RedisListQueue<String> other = RedisListQueue.builder(client, name, Codec.utf8())
                        .blockTimeout(Duration.ofMillis(100))
                        .build()) {
            AtomicInteger handled = new AtomicInteger();
            Subscription consumer = q.consume(
                    d -> {
                        handled.incrementAndGet();
                        // an upkeep of another instance (stats runs one when due) moves this message from
                        // 'claiming' into 'held', unknown to this one: its ack tries 'claiming' first
                        await().atMost(Duration.ofSeconds(10))
                                .pollInterval(Duration.ofMillis(20))
                                .until(() ->
                                        other.stats().inFlight() == 1 && client.hlen(Queues.key(name, "held")) == 1);
                    },
                    ConsumeOptions.builder().concurrency(1).build());

            long lrems = RedisClients.commandCalls(client, "lrem");
            q.send("slow");
            // the other instance's stats: this one's would run its own upkeep
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> handled.get() == 1 && other.stats().total() == 0);
            consumer.close();

            assertThat(RedisClients.commandCalls(client, "lrem") - lrems)
                    .as("an LREM that found nothing first")
                    .isOne();
            assertThat(client.hlen(Queues.key(name, "held")))
                    .as("nothing left held")
                    .isZero();
            assertThat(client.zcard(Queues.key(name, "inflight")))
                    .as("no lease left")
                    .isZero();
            assertThat(handled).as("acked once, never handed out again").hasValue(1);
        }
    }
}
