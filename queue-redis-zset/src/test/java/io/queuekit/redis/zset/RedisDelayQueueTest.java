package io.queuekit.redis.zset;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/** What the zset queue does beyond the contract: its limits, rounding, ordering, batches and leases. */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest
class RedisDelayQueueTest {
    private final RedisServer server;
    private final RedisClient client;
    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    RedisDelayQueueTest(RedisServer server, RedisClient client) {
        this.server = server;
        this.client = client;
    }

    @AfterEach
    void closeQueues() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private RedisDelayQueue.Builder<String> builder(RedisClient client, String name) {
        return RedisDelayQueue.builder(client, name, Codec.utf8());
    }

    private RedisDelayQueue<String> queue() {
        return track(builder(client, "zset-test-" + UUID.randomUUID()).build());
    }

    private <C extends AutoCloseable> C track(C c) {
        closeAfter.add(c);
        return c;
    }

    @Test
    void semantics_areThoseOfTheZsetTransport() {
        assertThat(queue().semantics())
                .isEqualTo(new Semantics(
                        "redis-zset",
                        Semantics.Guarantee.AT_LEAST_ONCE,
                        Semantics.Ordering.DUE_TIME,
                        true,
                        false,
                        true));
    }

    @Nested
    @DisplayName("bad input gets a clear answer and stores nothing")
    class BadInput {

        @Test
        void nulls_areRefused() {
            RedisDelayQueue<String> q = queue();
            MessageId id = MessageId.of("x");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.schedule(null, Duration.ZERO))
                    .withMessage("payload");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.schedule("x", null))
                    .withMessage("delay");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.scheduleAt("x", null))
                    .withMessage("dueAt");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.schedule(null, "x", Duration.ZERO))
                    .withMessage("id");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.scheduleAt(id, null, Instant.now()))
                    .withMessage("payload");
            assertThatNullPointerException().isThrownBy(() -> q.scheduleAll(null, Duration.ZERO));
            assertThatNullPointerException()
                    .isThrownBy(() -> q.scheduleAll(Arrays.asList("a", null), Duration.ZERO))
                    .withMessageContaining("index 1");
            assertThatNullPointerException().isThrownBy(() -> q.scheduleAllAt(List.of("a"), null));
            assertThatNullPointerException()
                    .isThrownBy(() -> q.scheduleEach(null))
                    .withMessage("messages");
            assertThatNullPointerException()
                    .isThrownBy(() -> q.scheduleEach(Arrays.asList(Scheduled.at("a", Instant.now()), null)))
                    .withMessageContaining("index 1");
            assertThatNullPointerException().isThrownBy(() -> q.cancel(null));
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void negativeAndOverlongDelays_areRefused_namingTheValue() {
            RedisDelayQueue<String> q = queue();
            Duration tooLong = DelayQueue.MAX_DELAY.plusNanos(1);

            assertThatThrownBy(() -> q.schedule("x", Duration.ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PT-0.005S");
            assertThatThrownBy(() -> q.schedule("x", tooLong))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(tooLong.toString());
            assertThatThrownBy(() -> q.scheduleAll(List.of("a", "b"), tooLong))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.schedule(MessageId.of("long"), "x", Duration.ofDays(100_000)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PT2400000H");
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void instantsBeyondTheMaximumDelay_areRefused_namingTheValue() {
            RedisDelayQueue<String> q = queue();
            Instant tooFar = Instant.now().plus(DelayQueue.MAX_DELAY).plusSeconds(60);

            assertThatThrownBy(() -> q.scheduleAt("x", tooFar))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(tooFar.toString());
            assertThatThrownBy(() -> q.scheduleAt("x", Instant.MAX))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Instant.MAX.toString());
            assertThatThrownBy(() -> q.scheduleAllAt(List.of("a"), Instant.MAX))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(
                            () -> q.scheduleEach(List.of(Scheduled.at("a", Instant.now()), Scheduled.at("b", tooFar))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("index 1")
                    .hasMessageContaining(tooFar.toString());
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void instantsLongPast_meanNow() throws Exception {
            RedisDelayQueue<String> q = queue();
            q.scheduleAt("min", Instant.MIN);
            q.scheduleAt("1900", Instant.parse("1900-01-01T00:00:00Z"));
            q.scheduleAt(MessageId.of("epoch"), "epoch", Instant.EPOCH);
            q.scheduleAllAt(List.of("yesterday"), Instant.now().minus(Duration.ofDays(1)));

            assertThat(q.stats()).isEqualTo(new QueueStats(4, 0, 0, 0));
            List<String> got =
                    q.pollBatch(10, 5, SECONDS).stream().map(Delivery::payload).toList();
            assertThat(got).as("all due now, so in send order").containsExactly("min", "1900", "epoch", "yesterday");
        }

        @Test
        void oversizePayload_isRefused_withBothSizes() {
            RedisDelayQueue<String> q = track(builder(client, "zset-test-" + UUID.randomUUID())
                    .maxPayloadBytes(1024)
                    .build());
            String big = "x".repeat(1025);

            assertThatThrownBy(() -> q.schedule(big, Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1025 bytes")
                    .hasMessageContaining("limit of 1024");
            assertThatThrownBy(() -> q.scheduleAll(List.of("small", big), Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("index 1");
            assertThatThrownBy(() -> q.scheduleEach(
                            List.of(Scheduled.at("small", Instant.now()), Scheduled.at(big, Instant.now()))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("index 1");
            assertThatThrownBy(() -> q.schedule(MessageId.of("big"), big, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(q.stats().total()).isZero();
            assertThat(q.schedule(MessageId.of("big"), "fits", Duration.ZERO))
                    .as("the id was not taken")
                    .isTrue();
        }

        @Test
        void duplicateIds_keepTheFirstPayloadAndDueTime() throws Exception {
            RedisDelayQueue<String> q = queue();
            MessageId id = MessageId.of("invoice-17");
            Instant due = Instant.now().plusMillis(300);

            assertThat(q.scheduleAt(id, "first", due)).isTrue();
            assertThat(q.schedule(id, "second", Duration.ZERO)).isFalse();
            assertThat(q.scheduleAt(id, "third", Instant.now().plus(Duration.ofDays(1))))
                    .isFalse();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));

            Delivery<String> d = q.poll(5, SECONDS);
            assertThat(Instant.now()).isAfterOrEqualTo(due);
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("first");
            assertThat(d.ack()).isTrue();
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void aRefusedCall_leavesStoredMessagesAlone() {
            RedisDelayQueue<String> q = queue();
            q.schedule(MessageId.of("kept"), "kept", Duration.ofMinutes(5));

            assertThatThrownBy(() -> q.schedule(MessageId.of("kept"), "x", Duration.ofDays(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleAt(MessageId.of("kept"), "x", Instant.MAX))
                    .isInstanceOf(IllegalArgumentException.class);

            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
            assertThat(q.cancel(MessageId.of("kept"))).isTrue();
        }
    }

    @Nested
    @DisplayName("due times are whole milliseconds, rounded so that nothing is early")
    class Rounding {

        @Test
        void delays_roundUp_andGainAMillisecondForTheServersTruncatedClock() {
            assertThat(RedisDelayQueue.delayMillis(Duration.ZERO)).isZero();
            assertThat(RedisDelayQueue.delayMillis(Duration.ofNanos(1))).isEqualTo(2);
            assertThat(RedisDelayQueue.delayMillis(Duration.ofMillis(50))).isEqualTo(51);
            assertThat(RedisDelayQueue.delayMillis(Duration.ofMillis(50).plusNanos(1)))
                    .isEqualTo(52);
        }

        @Test
        void instants_roundUp() {
            assertThat(RedisDelayQueue.dueMillis(Instant.ofEpochMilli(1_000))).isEqualTo(1_000);
            assertThat(RedisDelayQueue.dueMillis(Instant.ofEpochMilli(1_000).plusNanos(1)))
                    .isEqualTo(1_001);
            assertThat(RedisDelayQueue.dueMillis(Instant.MIN)).isZero();
        }
    }

    @Nested
    @DisplayName("ordering, batches and cancelling")
    class Storage {

        @Test
        void thousandsDueInOneMillisecond_keepSendOrder() throws Exception {
            RedisDelayQueue<String> q = queue();
            List<String> sent = IntStream.range(0, 3000).mapToObj(i -> "m" + i).toList();
            q.sendAll(sent);

            List<String> got = new ArrayList<>();
            while (got.size() < sent.size()) {
                for (Delivery<String> d : q.pollBatch(1000, 5, SECONDS)) {
                    got.add(d.payload());
                }
            }
            assertThat(got).containsExactlyElementsOf(sent);
        }

        @Test
        void scheduleAllAt_storesInOneCall_dueTogether_inCollectionOrder() throws Exception {
            RedisDelayQueue<String> q = queue();
            Instant due = Instant.now().plusMillis(200);
            List<MessageId> ids = q.scheduleAllAt(List.of("a", "b", "c"), due);
            q.scheduleAt("earlier", due.minusMillis(100));

            assertThat(ids).doesNotHaveDuplicates().hasSize(3);
            // all four waiting: delayed, or ready if a stalled host let 100 ms pass
            QueueStats stored = q.stats();
            assertThat(stored.delayed() + stored.ready()).isEqualTo(4);
            assertThat(stored.inFlight() + stored.dead()).isZero();
            List<String> got = new ArrayList<>();
            while (got.size() < 4) {
                for (Delivery<String> d : q.pollBatch(10, 5, SECONDS)) {
                    Instant dueOfThis = d.payload().equals("earlier") ? due.minusMillis(100) : due;
                    assertThat(Instant.now()).isAfterOrEqualTo(dueOfThis);
                    got.add(d.payload());
                }
            }
            assertThat(got).containsExactly("earlier", "a", "b", "c");
        }

        @Test
        void scheduleEach_ofTenThousand_isDeliveredByEachDueTime_thenInCollectionOrder() throws Exception {
            // one script stores, and one claims, all 10,000: give them longer than the usual 1 s read
            // timeout, which a loaded 2-core CI machine running three test JVMs has exceeded
            RedisClient patient = RedisClients.builder(server)
                    .socketTimeout(Duration.ofSeconds(10))
                    .build();
            RedisDelayQueue<String> q = track(builder(patient, "zset-test-" + UUID.randomUUID())
                    .claimBatch(10_000)
                    .build());
            closeAfter.add(patient); // after the queue
            Instant base = Instant.now().plusSeconds(1);
            List<Scheduled<String>> batch = IntStream.range(0, 10_000)
                    .mapToObj(i -> Scheduled.at("m" + i, base.plusMillis(i * 37L % 100)))
                    .toList();
            List<String> expected = batch.stream()
                    .sorted(Comparator.comparing(Scheduled::dueAt))
                    .map(Scheduled::payload)
                    .toList(); // a stable sort: equal due times keep the batch's order

            List<MessageId> ids = q.scheduleEach(batch);

            assertThat(ids).hasSize(10_000).doesNotHaveDuplicates();
            // all stored and waiting: delayed, or ready if a stalled host let their due times pass
            QueueStats stored = q.stats();
            assertThat(stored.delayed() + stored.ready()).isEqualTo(10_000);
            assertThat(stored.inFlight() + stored.dead()).isZero();
            List<String> got = new ArrayList<>();
            while (got.size() < expected.size()) {
                List<Delivery<String>> some = q.pollBatch(10_000, 5, SECONDS);
                Instant received = Instant.now();
                for (Delivery<String> d : some) {
                    Instant due = batch.get(Integer.parseInt(d.payload().substring(1)))
                            .dueAt();
                    assertThat(received)
                            .as("%s handed out before it was due", d.payload())
                            .isAfterOrEqualTo(due);
                    got.add(d.payload());
                }
                assertThat(q.ackAll(some)).isEqualTo(some.size());
            }
            assertThat(got).containsExactlyElementsOf(expected);
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void claimBatch_capsHowManyOneFetchTakes() throws Exception {
            RedisDelayQueue<String> q = track(builder(client, "zset-test-" + UUID.randomUUID())
                    .claimBatch(5)
                    .build());
            q.sendAll(IntStream.range(0, 12).mapToObj(i -> "m" + i).toList());

            assertThat(q.pollBatch(100, 5, SECONDS)).hasSize(5);
            assertThat(q.pollBatch(100, 5, SECONDS)).hasSize(5);
            assertThat(q.pollBatch(100, 5, SECONDS)).hasSize(2);
        }

        @Test
        void theLargestClaimBatch_takesTenThousandInOneFetch() throws Exception {
            RedisDelayQueue<String> q = track(builder(client, "zset-test-" + UUID.randomUUID())
                    .claimBatch(10_000)
                    .build());
            q.sendAll(IntStream.range(0, 10_000).mapToObj(i -> "m" + i).toList());

            List<Delivery<String>> got = q.pollBatch(10_000, 5, SECONDS);

            assertThat(got).hasSize(10_000);
            assertThat(q.ackAll(got)).isEqualTo(10_000);
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void retryDelays_roundUpAsScheduleDelaysDo() {
            assertThat(RedisContext.delayMillis(Duration.ofNanos(1_500_000))).isEqualTo(3);
            assertThat(RedisContext.delayMillis(Duration.ofMillis(2))).isEqualTo(3);
        }

        @Test
        void cancel_removesOnlyThatMessage_includingOneBackForARetry() throws Exception {
            RedisDelayQueue<String> q = queue();
            MessageId keep = q.schedule("keep", Duration.ofMinutes(1));
            MessageId retried = q.send("retried");
            Delivery<String> d = q.poll(5, SECONDS);
            assertThat(d.retry(Duration.ofMinutes(1))).isTrue();

            assertThat(q.cancel(retried)).as("waiting again after a retry").isTrue();
            assertThat(d.ack()).as("the old delivery no longer owns it").isFalse();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
            assertThat(q.cancel(keep)).isTrue();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Nested
    @DisplayName("peek shows the waiting messages in delivery order without taking them")
    class Peek {

        @Test
        void peek_showsWaitingMessages_nextDueFirst_withDueTimesAndAttempts() throws Exception {
            RedisDelayQueue<String> q = queue();
            Instant before = Instant.now().minusSeconds(1);
            MessageId later = q.schedule("later", Duration.ofHours(1));
            MessageId chosen = MessageId.of("invoice-17");
            q.schedule(chosen, "chosen", Duration.ofMinutes(1));
            MessageId first = q.send("first");
            MessageId second = q.send("second");

            List<WaitingMessage<String>> all = q.peek(10);

            assertThat(all).extracting(WaitingMessage::id).containsExactly(first, second, chosen, later);
            assertThat(all).extracting(WaitingMessage::payload).containsExactly("first", "second", "chosen", "later");
            assertThat(all).allSatisfy(m -> {
                assertThat(m.attempt()).isEqualTo(1);
                assertThat(m.enqueuedAt())
                        .isAfter(before)
                        .isBefore(Instant.now().plusSeconds(1));
                assertThat(m.dueAt()).isAfterOrEqualTo(m.enqueuedAt());
            });
            assertThat(all.get(3).dueAt())
                    .isBetween(
                            before.plus(Duration.ofHours(1)),
                            Instant.now().plus(Duration.ofHours(1)).plusSeconds(1));
            assertThat(q.peek(2)).extracting(WaitingMessage::id).containsExactly(first, second);
            assertThat(q.stats()).isEqualTo(new QueueStats(2, 0, 2, 0));
            assertThat(q.poll().id()).isEqualTo(first);
        }

        @Test
        void peek_showsARetriedMessage_asItsNextAttempt_atItsNewDueTime() throws Exception {
            RedisDelayQueue<String> q = queue();
            MessageId id = q.send("again");
            Delivery<String> d = q.poll(5, SECONDS);
            Instant retried = Instant.now();
            assertThat(d.retry(Duration.ofMinutes(5))).isTrue();

            WaitingMessage<String> m = q.peek(1).get(0);

            assertThat(m.id()).isEqualTo(id);
            assertThat(m.attempt()).isEqualTo(2);
            assertThat(m.enqueuedAt()).isEqualTo(d.enqueuedAt());
            assertThat(m.dueAt())
                    .isAfterOrEqualTo(retried.plus(Duration.ofMinutes(5)).minusMillis(1000));
            assertThat(q.peek(10)).hasSize(1);
        }

        @Test
        void peek_showsAnIdWithoutABody_withNoPayload() {
            RedisDelayQueue<String> q = queue();
            q.send("mine");
            client.zadd("queuekit:{" + q.name() + "}:ready", 0, "stray");

            WaitingMessage<String> stray = q.peek(10).get(0);

            assertThat(stray.id()).isEqualTo(MessageId.of("stray"));
            assertThat(stray.payload()).isNull();
            assertThat(stray.enqueuedAt()).isNull();
        }

        @Test
        void peek_refusesABadCount_andAClosedQueue() {
            RedisDelayQueue<String> q = queue();
            assertThat(q.peek(10)).isEmpty();
            assertThatThrownBy(() -> q.peek(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0");
            assertThatThrownBy(() -> q.peek(10_001)).isInstanceOf(IllegalArgumentException.class);
            q.close();
            assertThatThrownBy(() -> q.peek(1)).isInstanceOf(QueueClosedException.class);
        }
    }

    @Nested
    @DisplayName("a consumer that vanishes loses nothing")
    class Leases {

        @Test
        void messagesOfAConsumerThatClaimedAndVanished_comeBackAfterTheLease() throws Exception {
            String name = "zset-test-" + UUID.randomUUID();
            Duration lease = Duration.ofSeconds(1);
            RedisDelayQueue<String> survivor =
                    track(builder(client, name).visibilityTimeout(lease).build());
            survivor.sendAll(List.of("a", "b", "c"));

            try (RedisClient doomedClient = RedisClients.create(server)) {
                RedisDelayQueue<String> doomed =
                        builder(doomedClient, name).visibilityTimeout(lease).build();
                assertThat(doomed.pollBatch(10, 5, SECONDS)).hasSize(3);
                doomed.close();
            }
            assertThat(survivor.stats().inFlight()).isEqualTo(3);

            List<Delivery<String>> back = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                back.addAll(survivor.pollBatch(10, 1, SECONDS));
                return back.size() == 3;
            });
            assertThat(back).extracting(Delivery::payload).containsExactly("a", "b", "c");
            assertThat(back).allSatisfy(d -> assertThat(d.attempt()).isEqualTo(2));
            back.forEach(Delivery::ack);
            assertThat(survivor.stats().total()).isZero();
        }
    }
}
