package io.queuekit.redis.zset;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.Scheduled;
import io.queuekit.Subscription;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.spi.MessageObservations;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/**
 * Headers on the delay queue, where the transport handles them itself: every way to store a message
 * passes them on; kept when a claim's reap returns or buries a message whose lease expired, through
 * dead letters and requeue, on shards, in {@code peek}, and at no cost in round trips or, without
 * headers, in bytes. A server of its own, since it counts the server's round trips.
 */
@RedisServerTest(server = PER_CLASS)
@Timeout(30)
class RedisDelayQueueHeadersTest {
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Headers HEADERS = Headers.of(
                    "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .with("tenant", "Zürich ✓")
            .with("empty", "");

    private final RedisClient client;

    RedisDelayQueueHeadersTest(RedisClient client) {
        this.client = client;
    }

    private static String unique(String what) {
        return what + "-" + UUID.randomUUID();
    }

    private RedisDelayQueue.Builder<String> builder(String name) {
        return RedisDelayQueue.builder(client, name, Codec.utf8())
                .visibilityTimeout(LEASE)
                .blockTimeout(Duration.ofMillis(200));
    }

    private static List<Delivery<String>> pollAll(RedisDelayQueue<String> q, int count) {
        List<Delivery<String>> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            got.addAll(q.pollBatch(count, 1, SECONDS));
            return got.size() >= count;
        });
        got.sort(Comparator.comparing(Delivery::payload));
        return got;
    }

    @Test
    void everyWayToStore_keepsTheHeadersGiven() {
        try (RedisDelayQueue<String> q = builder(unique("forms")).build()) {
            Instant now = Instant.now();
            q.send("a", Headers.of("form", "send"));
            q.schedule("b", Headers.of("form", "schedule"), Duration.ofMillis(1));
            q.scheduleAt("c", Headers.of("form", "scheduleAt"), now);
            assertThat(q.schedule(MessageId.of("chosen-d"), "d", Headers.of("form", "chosen"), Duration.ZERO))
                    .isTrue();
            assertThat(q.scheduleAt(MessageId.of("chosen-e"), "e", Headers.of("form", "chosenAt"), now))
                    .isTrue();
            q.scheduleEach(List.of(
                    Scheduled.at("f", now).withHeaders(Headers.of("form", "each-1")),
                    Scheduled.at("g", now),
                    Scheduled.at("h", now.plusMillis(1)).withHeaders(Headers.of("form", "each-3"))));
            q.scheduleAll(List.of("i"), Duration.ZERO);

            List<Delivery<String>> got = pollAll(q, 9);

            assertThat(got)
                    .extracting(d -> d.payload() + " " + d.headers())
                    .containsExactly(
                            "a {form=send}",
                            "b {form=schedule}",
                            "c {form=scheduleAt}",
                            "d {form=chosen}",
                            "e {form=chosenAt}",
                            "f {form=each-1}",
                            "g {}",
                            "h {form=each-3}",
                            "i {}");
            assertThat(q.ackAll(got)).isEqualTo(9);
        }
    }

    @Test
    void aSecondScheduleOfAChosenId_leavesTheFirstHeaders() throws Exception {
        try (RedisDelayQueue<String> q = builder(unique("chosen")).build()) {
            MessageId id = MessageId.of("invoice-17");
            assertThat(q.schedule(id, "first", Headers.of("n", "1"), Duration.ZERO))
                    .isTrue();
            assertThat(q.schedule(id, "second", Headers.of("n", "2"), Duration.ZERO))
                    .isFalse();

            Delivery<String> d = q.poll(5, SECONDS);

            assertThat(d.payload()).isEqualTo("first");
            assertThat(d.headers()).isEqualTo(Headers.of("n", "1"));
            assertThat(d.ack()).isTrue();
        }
    }

    @Test
    void headers_stay_whenAClaimReapsALeaseThatExpired() throws Exception {
        try (RedisDelayQueue<String> q = builder(unique("reaped")).build()) {
            q.send("x", HEADERS);
            Delivery<String> abandoned = q.poll(5, SECONDS);
            assertThat(abandoned.headers()).isEqualTo(HEADERS);

            // not settled: a later claim finds the lease expired and hands the message out again
            Delivery<String> again = q.poll(10, SECONDS);

            assertThat(again.id()).isEqualTo(abandoned.id());
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.headers()).isEqualTo(HEADERS);
            assertThat(again.ack()).isTrue();
        }
    }

    @Test
    void headers_stay_whenAReapDeadLettersTheLastAttempt_andWhenItIsRequeued() throws Exception {
        try (RedisDelayQueue<String> q =
                builder(unique("buried")).maxAttempts(1).build()) {
            MessageId id = q.send("x", HEADERS);
            assertThat(q.poll(5, SECONDS).headers()).isEqualTo(HEADERS);

            // a claim reaps the expired lease of the last attempt into the dead letters
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> q.poll() == null && q.stats().dead() == 1);

            assertThat(q.deadLetters().find(id).orElseThrow().headers()).isEqualTo(HEADERS);
            assertThat(q.deadLetters().requeue(id)).isTrue();
            Delivery<String> requeued = q.poll(5, SECONDS);
            assertThat(requeued.id()).isEqualTo(id);
            assertThat(requeued.headers()).isEqualTo(HEADERS);
            assertThat(requeued.ack()).isTrue();
        }
    }

    @Test
    void headers_stay_throughRetry_andADeadLetterOfTheHandler() throws Exception {
        try (RedisDelayQueue<String> q = builder(unique("settled")).build()) {
            MessageId id = q.send("x", HEADERS);
            assertThat(q.poll(5, SECONDS).retry(Duration.ZERO)).isTrue();
            Delivery<String> second = q.poll(5, SECONDS);
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.headers()).isEqualTo(HEADERS);

            assertThat(second.deadLetter("for the test")).isTrue();

            assertThat(q.deadLetters().list(10))
                    .singleElement()
                    .satisfies(dl -> assertThat(dl.headers()).isEqualTo(HEADERS));
            assertThat(q.deadLetters().requeue(id)).isTrue();
            assertThat(q.poll(5, SECONDS).headers()).isEqualTo(HEADERS);
        }
    }

    @Test
    void storingWithHeaders_isOneScriptCall_asStoringWithout() {
        try (RedisDelayQueue<String> q = builder(unique("trips")).build()) {
            q.send("first");

            long without = roundTrips(() -> q.schedule("plain", Duration.ofMinutes(1)));
            long scripts = RedisClients.commandCalls(client, "evalsha");
            long with = roundTrips(() -> q.schedule("headed", HEADERS, Duration.ofMinutes(1)));
            long withEach = roundTrips(() -> q.scheduleEach(List.of(
                    Scheduled.at("one", Instant.now()).withHeaders(HEADERS),
                    Scheduled.at("two", Instant.now()).withHeaders(Headers.of("k", "v")))));

            assertThat(with).as("round trips of a schedule with headers").isEqualTo(without);
            assertThat(withEach)
                    .as("round trips of a scheduleEach with headers")
                    .isEqualTo(without);
            assertThat(RedisClients.commandCalls(client, "evalsha") - scripts).isEqualTo(2);
            assertThat(q.stats().total()).isEqualTo(5);
        }
    }

    /** Round trips the server read while {@code call} ran, plus the one that asks (the same for every call). */
    private long roundTrips(Runnable call) {
        long before = RedisClients.readsProcessed(client);
        call.run();
        return RedisClients.readsProcessed(client) - before;
    }

    @Test
    void aMessageWithoutHeaders_isStoredByteForByteAsBeforeHeaders() {
        String name = unique("bytes");
        try (RedisDelayQueue<String> q = builder(name).build()) {
            MessageId plain = q.send("a");
            MessageId headed = q.send("a", Headers.of("k", "v"));

            String body = "queuekit:{" + name + "}:body";

            // "<enqueued ms>:<payload>", the payload as encoded, or framed with its headers
            assertThat(client.hget(body, plain.value())).matches("\\d+:a");
            assertThat(new String(
                            client.hget(
                                    body.getBytes(StandardCharsets.UTF_8),
                                    headed.value().getBytes(StandardCharsets.UTF_8)),
                            StandardCharsets.UTF_8))
                    .matches("\\d+:\0qkh6:1:k1:va");
        }
    }

    @Test
    void peek_showsEachMessagesHeaders() {
        try (RedisDelayQueue<String> q = builder(unique("peek")).build()) {
            q.schedule("a", HEADERS, Duration.ofMinutes(1));
            q.schedule("b", Duration.ofMinutes(2));

            List<WaitingMessage<String>> next = q.peek(10);

            assertThat(next).extracting(WaitingMessage::payload).containsExactly("a", "b");
            assertThat(next).extracting(WaitingMessage::headers).containsExactly(HEADERS, Headers.empty());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aShardedQueue_keepsHeaders_whetherItStoresByKeyOrInTurn(boolean byKey) {
        RedisDelayQueue.Builder<String> b = builder(unique("shards")).shards(3);
        if (byKey) {
            b.shardBy(Function.identity());
        }
        try (RedisDelayQueue<String> q = b.build()) {
            Instant now = Instant.now();
            q.send("a0", Headers.of("key", "a0"));
            q.schedule("a1", Headers.of("key", "a1"), Duration.ZERO);
            q.schedule(MessageId.of("chosen"), "a2", Headers.of("key", "a2"), Duration.ZERO);
            q.scheduleEach(List.of(
                    Scheduled.at("a3", now).withHeaders(Headers.of("key", "a3")),
                    Scheduled.at("a4", now).withHeaders(Headers.of("key", "a4")),
                    Scheduled.at("a5", now).withHeaders(Headers.of("key", "a5"))));

            List<Delivery<String>> got = pollAll(q, 6);

            assertThat(got).extracting(Delivery::payload).containsExactly("a0", "a1", "a2", "a3", "a4", "a5");
            assertThat(got).allSatisfy(d -> assertThat(d.headers()).isEqualTo(Headers.of("key", d.payload())));
            assertThat(q.ackAll(got)).isEqualTo(6);
        }
    }

    @Test
    void observations_seeOneSendPerCall_andTheirHeadersGoWithEveryMessage() {
        Recording observations = new Recording();
        try (RedisDelayQueue<String> q =
                builder(unique("observed")).observations(observations).build()) {
            q.schedule("a", Headers.of("own", "1").with("trace", "the sender's own"), Duration.ZERO);
            q.scheduleAll(List.of("b", "c"), Duration.ZERO);
            q.scheduleEach(List.of(Scheduled.at("d", Instant.now()).withHeaders(Headers.of("own", "4"))));
            q.scheduleEach(List.of());

            assertThat(observations.sends).containsExactly("redis-zset 1", "redis-zset 2", "redis-zset 1");
            List<Delivery<String>> handled = new CopyOnWriteArrayList<>();
            Subscription consumer = q.consume(
                    handled::add, ConsumeOptions.builder().concurrency(1).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 4);
            consumer.close();

            // what observations add replaces a header of the same name, in its place
            assertThat(handled)
                    .extracting(d -> d.payload() + " " + d.headers())
                    .containsExactlyInAnyOrder(
                            "a {own=1, trace=observed}",
                            "b {trace=observed}",
                            "c {trace=observed}",
                            "d {own=4, trace=observed}");
            assertThat(observations.handled)
                    .containsExactlyElementsOf(
                            handled.stream().map(Delivery::headers).toList());
        }
    }

    /** Adds a header to every send and records what it sees. */
    static final class Recording implements MessageObservations {
        final List<String> sends = new CopyOnWriteArrayList<>();
        final List<Headers> handled = new CopyOnWriteArrayList<>();

        @Override
        public <R> R sending(Destination destination, int count, Send<R> send) {
            sends.add(destination.transport() + " " + count);
            return send.send(Headers.of("trace", "observed"));
        }

        @Override
        public void handling(Destination destination, Headers headers, Handling handling) throws Exception {
            handled.add(headers);
            handling.run();
        }
    }
}
