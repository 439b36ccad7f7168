package io.queuekit.inmemory;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What is specific to the in-memory queue: its clock, its codec round trip, its builder. */
@Timeout(10)
class InMemoryMessageQueueTest {
    private final ManualClock clock = new ManualClock();
    private MessageQueue<?> queue;

    @AfterEach
    void close() {
        if (queue != null) {
            queue.close();
        }
    }

    private <T> InMemoryMessageQueue<T> track(InMemoryMessageQueue<T> q) {
        queue = q;
        return q;
    }

    private static <T> CompletableFuture<T> async(Callable<T> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return call.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                runnable -> {
                    Thread t = new Thread(runnable, "test-async");
                    t.setDaemon(true);
                    t.start();
                });
    }

    interface Callable<T> {
        T call() throws Exception;
    }

    private static void awaitWaiting(CompletableFuture<?> f) {
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(t -> t.getName().equals("test-async")
                                && (t.getState() == Thread.State.WAITING
                                        || t.getState() == Thread.State.TIMED_WAITING)));
        assertThat(f).isNotDone();
    }

    @Nested
    @DisplayName("each message sent wakes a blocked taker")
    class Waking {

        @Test
        void sendsInARow_toBlockedTakers_eachReachOne_thoughASendOntoReadyMessagesWakesNoOne() throws Exception {
            InMemoryMessageQueue<String> q = track(
                    InMemoryMessageQueue.<String>builder("wakes").clock(clock).build());
            int takers = 4;
            List<CompletableFuture<Delivery<String>>> takes = new ArrayList<>();
            for (int i = 0; i < takers; i++) {
                takes.add(async(q::take));
            }
            // a manual clock never times a wait to an event: a take waits a day at a time, so only a
            // send, or a taker passing the wake on, ends one
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> Thread.getAllStackTraces().keySet().stream()
                                    .filter(t -> t.getName().equals("test-async")
                                            && (t.getState() == Thread.State.WAITING
                                                    || t.getState() == Thread.State.TIMED_WAITING))
                                    .count()
                            == takers);

            for (int i = 0; i < takers; i++) {
                q.send("m" + i);
            }

            List<String> got = new ArrayList<>();
            for (CompletableFuture<Delivery<String>> take : takes) {
                got.add(take.get(5, SECONDS).payload());
            }
            assertThat(got).containsExactlyInAnyOrder("m0", "m1", "m2", "m3");
        }
    }

    @Nested
    @DisplayName("time runs on the injected clock")
    class Time {

        @Test
        void advancingAManualClock_wakesATakeBlockedOnAnExpiringLease() throws Exception {
            InMemoryMessageQueue<String> q = track(
                    InMemoryMessageQueue.<String>builder("leases").clock(clock).build());
            q.send("x");
            Delivery<String> first = q.take();
            CompletableFuture<Delivery<String>> take = async(q::take);
            awaitWaiting(take);

            clock.advance(Duration.ofSeconds(30));

            Delivery<String> again = take.get(5, SECONDS);
            assertThat(again.id()).isEqualTo(first.id());
            assertThat(again.attempt()).isEqualTo(2);
        }

        @Test
        void advancingAManualClock_wakesAPollBlockedOnARetryDelay() throws Exception {
            InMemoryMessageQueue<String> q = track(
                    InMemoryMessageQueue.<String>builder("retries").clock(clock).build());
            q.send("x");
            q.take().retry(Duration.ofHours(1));
            CompletableFuture<Delivery<String>> poll = async(() -> q.poll(5, SECONDS));
            awaitWaiting(poll);

            clock.advance(Duration.ofHours(1));

            assertThat(poll.get(5, SECONDS).attempt()).isEqualTo(2);
        }

        @Test
        void pollTimeout_isRealTime_soAFrozenManualClockCannotHangIt() throws Exception {
            InMemoryMessageQueue<String> q = track(
                    InMemoryMessageQueue.<String>builder("frozen").clock(clock).build());
            q.send("x");
            q.take().retry(Duration.ofHours(1));

            assertThat(q.poll(50, MILLISECONDS)).isNull();
            assertThat(q.pollBatch(5, 50, MILLISECONDS)).isEmpty();
        }

        @Test
        void pollsWithATimeoutOfOneNanosecond_stillHandOutWhatIsReady() throws Exception {
            InMemoryMessageQueue<String> q = track(
                    InMemoryMessageQueue.<String>builder("short").clock(clock).build());
            q.sendAll(List.of("a", "b"));

            // the timeout has passed before the receive looks: it looks once all the same
            assertThat(q.poll(1, NANOSECONDS)).isNotNull();
            assertThat(q.pollBatch(5, 1, NANOSECONDS)).hasSize(1);
        }

        @Test
        void pollTimeout_endsOnAClockAtTheEndOfTime() throws Exception {
            Clock end = Clock.fixed(Instant.MAX, ZoneOffset.UTC);
            InMemoryMessageQueue<String> q =
                    track(InMemoryMessageQueue.<String>builder("end").clock(end).build());

            assertThat(q.poll(50, MILLISECONDS)).isNull();
        }

        @Test
        void withTheSystemClock_aBlockedTakeWakesWhenARetryFallsDue() throws Exception {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("system")
                    .clock(Clock.systemUTC())
                    .build());
            q.send("x");
            q.take().retry(Duration.ofMillis(100));

            // nothing signals the due time: only the timed wait can notice it
            Delivery<String> again = async(q::take).get(5, SECONDS);

            assertThat(again.attempt()).isEqualTo(2);
        }

        @Test
        void anExpiredLeaseOnItsLastAttempt_countsAsReady_untilAReceiveBuriesIt() throws Exception {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("last")
                    .clock(clock)
                    .maxAttempts(1)
                    .build());
            q.send("x");
            Delivery<String> d = q.poll();
            clock.advance(Duration.ofSeconds(30));

            assertThat(q.stats()).as("as on Redis, until a receive reaps it").isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(q.deadLetters().size()).isZero();
            assertThat(d.ack()).as("the delivery whose lease expired").isFalse();

            assertThat(q.poll()).isNull();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            assertThat(q.deadLetters().list(1).get(0).reason()).isEqualTo("lease expired on attempt 1 of 1");
        }

        @Test
        void defaults_leaseOf30Seconds_andFiveAttempts() throws Exception {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("defaults")
                    .clock(clock)
                    .build());
            q.send("x");
            for (int attempt = 1; attempt <= 5; attempt++) {
                Delivery<String> d = q.poll();
                assertThat(d.attempt()).isEqualTo(attempt);
                clock.advance(Duration.ofSeconds(29));
                assertThat(q.poll()).as("redelivered before 30 s").isNull();
                clock.advance(Duration.ofSeconds(1));
            }
            assertThat(q.poll()).isNull();
            assertThat(q.deadLetters().list(1).get(0).reason()).isEqualTo("lease expired on attempt 5 of 5");
        }

        @Test
        void create_isAtLeastOnceFifoAndRetained() {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.create("orders"));
            assertThat(q.name()).isEqualTo("orders");
            assertThat(q.semantics())
                    .isEqualTo(new Semantics(
                            "in-memory",
                            Semantics.Guarantee.AT_LEAST_ONCE,
                            Semantics.Ordering.FIFO,
                            true,
                            false,
                            false));
            InMemoryMessageQueue<String> atMostOnce = InMemoryMessageQueue.<String>builder("orders")
                    .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                    .build();
            assertThat(atMostOnce.semantics().guarantee()).isEqualTo(Semantics.Guarantee.AT_MOST_ONCE);
            atMostOnce.close();
        }
    }

    @Nested
    @DisplayName("a codec round-trips payloads as Redis would")
    class Codecs {

        @Test
        void withACodec_deliveriesAreCopies_unaffectedByTheSendersArray() throws Exception {
            InMemoryMessageQueue<byte[]> q = track(InMemoryMessageQueue.<byte[]>builder("bytes")
                    .codec(Codec.bytes())
                    .clock(clock)
                    .build());
            byte[] sent = {1, 2, 3};
            q.send(sent);
            sent[0] = 9;

            Delivery<byte[]> d = q.take();

            assertThat(d.payload()).containsExactly(1, 2, 3);
            d.payload()[1] = 7;
            clock.advance(Duration.ofSeconds(30));
            assertThat(q.take().payload()).as("the redelivery decodes afresh").containsExactly(1, 2, 3);
        }

        @Test
        void withoutACodec_theSameObjectIsHandedOut() throws Exception {
            InMemoryMessageQueue<StringBuilder> q = track(InMemoryMessageQueue.create("objects"));
            StringBuilder sent = new StringBuilder("x");
            q.send(sent);
            assertThat(q.take().payload()).isSameAs(sent);
        }

        @Test
        void payloadOverTheLimit_isRefusedNamingBothSizes_andNothingIsStored() {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("limited")
                    .codec(Codec.utf8())
                    .maxPayloadBytes(4)
                    .build());

            assertThatThrownBy(() -> q.send("12345"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("limited: payload is 5 bytes encoded, above the limit of 4 bytes (maxPayloadBytes)");
            assertThatThrownBy(() -> q.sendAll(List.of("1234", "12345"))).isInstanceOf(IllegalArgumentException.class);
            assertThat(q.stats().total()).isZero();
            q.send("1234");
            assertThat(q.stats().ready()).isEqualTo(1);
        }

        @Test
        void defaultLimit_isOneMebibyte() {
            InMemoryMessageQueue<byte[]> q = track(InMemoryMessageQueue.<byte[]>builder("big")
                    .codec(Codec.bytes())
                    .build());
            q.send(new byte[1024 * 1024]);
            assertThatThrownBy(() -> q.send(new byte[1024 * 1024 + 1])).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void encodeFailure_throwsSerializationException_andStoresNothing() {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("encode")
                    .codec(new Picky())
                    .build());

            assertThatThrownBy(() -> q.send("unencodable")).isInstanceOf(SerializationException.class);
            assertThatThrownBy(() -> q.sendAll(Arrays.asList("fine", "unencodable")))
                    .isInstanceOf(SerializationException.class);

            assertThat(q.stats().total()).isZero();
        }

        @Test
        void undecodableBody_isDeadLetteredAtOnceByConsume_withThePayloadLeftOut() throws Exception {
            InMemoryMessageQueue<String> q = track(InMemoryMessageQueue.<String>builder("decode")
                    .codec(new Picky())
                    .build());
            q.send("undecodable");
            Delivery<String> d = q.take();
            assertThatThrownBy(d::payload).isInstanceOf(SerializationException.class);
            d.retry(Duration.ZERO);

            q.consume(
                    x -> x.payload(),
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(50)).build());

            await().atMost(Duration.ofSeconds(5)).until(() -> q.deadLetters().size() == 1);
            DeadLetter<String> dl = q.deadLetters().list(1).get(0);
            assertThat(dl.payload()).isNull();
            assertThat(dl.attempts()).isEqualTo(2);
            assertThat(dl.reason())
                    .as("says it once")
                    .startsWith("undecodable: ")
                    .doesNotContain(" (payload");
        }
    }

    @Nested
    @DisplayName("builders refuse bad settings at once, saying what is wrong")
    class Builders {

        @Test
        void visibilityTimeout_mustBeBetween10msAnd12h_likeRedis() {
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").visibilityTimeout(Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("visibility timeout must be 10 ms to 12 h: PT0S");
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").visibilityTimeout(Duration.ofSeconds(-1)))
                    .hasMessage("visibility timeout must be 10 ms to 12 h: PT-1S");
            assertThatThrownBy(() ->
                            InMemoryMessageQueue.builder("q").visibilityTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("visibility timeout must be 10 ms to 12 h: ");
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").visibilityTimeout(null))
                    .isInstanceOf(NullPointerException.class);
        }

        @Test
        void maxAttempts_mustBe1To1000() {
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").maxAttempts(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("max attempts must be 1 to 1000: 0");
            assertThatThrownBy(() -> InMemoryDelayQueue.builder("q").maxAttempts(1001))
                    .hasMessage("max attempts must be 1 to 1000: 1001");
            InMemoryMessageQueue.builder("q").maxAttempts(1).maxAttempts(1000);
        }

        @Test
        void deadLetterRetention_payloadLimit_andClaimBatch_takeTheRangesOfTheRedisQueues() {
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").deadLetterRetention(-1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("dead-letter retention must be 0 to 100000000: -1");
            assertThatThrownBy(() -> InMemoryDelayQueue.builder("q").claimBatch(10_001))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("claim batch must be 1 to 10000: 10001");
            assertThatThrownBy(() -> InMemoryBroadcaster.builder("q").maxPayloadBytes(-5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxPayloadBytes must be 1 to 268435456 (256 MiB): -5");
        }

        @Test
        void deadLetterRetentionOfZero_keepsNoDeadLetter_asOnRedis() throws Exception {
            InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("q")
                    .deadLetterRetention(0)
                    .build();
            q.send("x");
            assertThat(q.poll().deadLetter("gone")).isTrue();

            assertThat(q.stats().total()).isZero();
            assertThat(q.deadLetters().list(10)).isEmpty();
        }

        @Test
        void pollBatch_handsOutAtMostTheClaimBatch_asOnRedis() throws Exception {
            InMemoryMessageQueue<String> q = InMemoryMessageQueue.create("q");
            q.sendAll(java.util.Collections.nCopies(500, "x"));

            assertThat(q.pollBatch(500, 0, java.util.concurrent.TimeUnit.SECONDS))
                    .hasSize(100);
            InMemoryMessageQueue<String> wide =
                    InMemoryMessageQueue.<String>builder("wide").claimBatch(500).build();
            wide.sendAll(java.util.Collections.nCopies(500, "x"));
            assertThat(wide.pollBatch(500, 0, java.util.concurrent.TimeUnit.SECONDS))
                    .hasSize(500);
        }

        @Test
        void names_areCheckedAsByEveryTransport() {
            assertThatThrownBy(() -> InMemoryMessageQueue.create("has space"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("' ' at index 3");
            assertThatThrownBy(() -> InMemoryDelayQueue.create("{tag}")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> InMemoryBroadcaster.create("")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> InMemoryMessageQueue.create(null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void nullSettings_areRefused() {
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").clock(null))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> InMemoryMessageQueue.<String>builder("q").codec(null))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> InMemoryMessageQueue.builder("q").guarantee(null))
                    .isInstanceOf(NullPointerException.class);
        }
    }

    @Test
    @Timeout(30)
    void deadLetterListing_neverShowsHalfARequeue() throws Exception {
        InMemoryMessageQueue<String> q = InMemoryMessageQueue.create("torn");
        q.sendAll(List.of("a", "b", "c", "d"));
        List<Delivery<String>> held = q.pollBatch(4, 1, java.util.concurrent.TimeUnit.SECONDS);
        held.forEach(d -> d.deadLetter("dead"));
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger listings = new AtomicInteger();
        List<String> torn = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread lister = new Thread(() -> {
            while (!done.get()) {
                for (DeadLetter<String> dl : q.deadLetters().list(10)) {
                    if (dl.reason() == null || dl.deadAt() == null) {
                        torn.add(dl.toString());
                    }
                }
                listings.incrementAndGet();
            }
        });
        lister.start();
        try {
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < until && torn.isEmpty()) {
                q.deadLetters().requeueAll();
                for (Delivery<String> d : q.pollBatch(4, 1, java.util.concurrent.TimeUnit.SECONDS)) {
                    d.deadLetter("dead");
                }
            }
        } finally {
            done.set(true);
            lister.join(5_000);
        }
        assertThat(listings.get()).isPositive();
        assertThat(torn).as("dead letters listed with no reason or time").isEmpty();
    }

    /** UTF-8, except that it cannot encode "unencodable" nor decode "undecodable". */
    static final class Picky implements Codec<String> {
        @Override
        public byte[] encode(String payload) {
            if (payload.equals("unencodable")) {
                throw new SerializationException("cannot encode " + payload, null);
            }
            return payload.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            String s = new String(bytes, StandardCharsets.UTF_8);
            if (s.equals("undecodable")) {
                throw new IllegalStateException("cannot decode " + s);
            }
            return s;
        }
    }
}
