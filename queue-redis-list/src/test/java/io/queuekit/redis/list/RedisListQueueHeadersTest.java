package io.queuekit.redis.list;

import static io.queuekit.Semantics.Guarantee.AT_LEAST_ONCE;
import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.spi.MessageObservations;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/**
 * Headers on the list queue, where the transport handles them itself: kept when the upkeep's
 * script returns or buries a message whose lease expired, through dead letters and requeue, on
 * shards, in {@code peek}, and at no cost in round trips or, without headers, in bytes. A server of
 * its own, since it counts the server's round trips.
 */
@RedisServerTest(server = PER_CLASS)
@Timeout(30)
class RedisListQueueHeadersTest {
    private static final Headers HEADERS = Headers.of(
                    "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .with("tenant", "Zürich ✓")
            .with("empty", "");

    private final RedisClient client;

    RedisListQueueHeadersTest(RedisClient client) {
        this.client = client;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void headers_stay_throughRetry_deadLetter_andRequeue(Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q = Queues.strings(client, Queues.unique("kept"), guarantee)) {
            MessageId id = q.send("x", HEADERS);

            Delivery<String> first = q.poll(5, SECONDS);
            assertThat(first.headers()).isEqualTo(HEADERS);
            assertThat(first.headers().asMap().keySet()).containsExactly("traceparent", "tenant", "empty");
            assertThat(first.retry(Duration.ZERO)).isTrue();
            Delivery<String> second = q.poll(5, SECONDS);
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.headers()).isEqualTo(HEADERS);
            assertThat(second.deadLetter("for the test")).isTrue();

            DeadLetter<String> dead = q.deadLetters().find(id).orElseThrow();
            assertThat(dead.headers()).isEqualTo(HEADERS);
            assertThat(dead.payload()).isEqualTo("x");
            assertThat(q.deadLetters().requeue(id)).isTrue();
            Delivery<String> requeued = q.poll(5, SECONDS);
            assertThat(requeued.id()).isEqualTo(id);
            assertThat(requeued.payload()).isEqualTo("x");
            assertThat(requeued.headers()).isEqualTo(HEADERS);
            assertThat(requeued.ack()).isTrue();
        }
    }

    @Test
    void headers_stay_whenTheUpkeepReturnsAMessageWhoseLeaseExpired() throws Exception {
        try (RedisListQueue<String> q = Queues.strings(client, Queues.unique("reaped"), AT_LEAST_ONCE)) {
            q.send("x", HEADERS);
            Delivery<String> abandoned = q.poll(5, SECONDS);
            assertThat(abandoned.headers()).isEqualTo(HEADERS);

            // not settled: the upkeep leases it, then finds the lease expired and pushes it back
            Delivery<String> again = q.poll(10, SECONDS);

            assertThat(again.id()).isEqualTo(abandoned.id());
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.headers()).isEqualTo(HEADERS);
            assertThat(again.ack()).isTrue();
        }
    }

    @Test
    void headers_stay_whenTheUpkeepDeadLettersAMessageAtItsLastAttempt_andWhenItIsRequeued() throws Exception {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("buried"), Codec.utf8())
                .visibilityTimeout(Queues.LEASE)
                .blockTimeout(Queues.BLOCK)
                .maxAttempts(1)
                .build()) {
            MessageId id = q.send("x", HEADERS);
            assertThat(q.poll(5, SECONDS).headers()).isEqualTo(HEADERS);

            // stats() runs the upkeep when due, which buries the expired lease of the last attempt
            await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().dead() == 1);

            assertThat(q.deadLetters().find(id).orElseThrow().headers()).isEqualTo(HEADERS);
            assertThat(q.deadLetters().requeue(id)).isTrue();
            Delivery<String> requeued = q.poll(5, SECONDS);
            assertThat(requeued.id()).isEqualTo(id);
            assertThat(requeued.headers()).isEqualTo(HEADERS);
            assertThat(requeued.ack()).isTrue();
        }
    }

    @Test
    void sendWithHeaders_isOneLpush_asASendWithoutThem() {
        try (RedisListQueue<String> q = Queues.strings(client, Queues.unique("trips"), AT_LEAST_ONCE)) {
            q.send("first"); // an object's first send checks the keys' layout once

            long without = roundTrips(() -> q.send("plain"));
            long lpushes = RedisClients.commandCalls(client, "lpush");
            long with = roundTrips(() -> q.send("headed", HEADERS));

            assertThat(with).as("round trips of a send with headers").isEqualTo(without);
            assertThat(RedisClients.commandCalls(client, "lpush") - lpushes).isEqualTo(1);
            assertThat(q.stats().ready()).isEqualTo(3);
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
        String name = Queues.unique("bytes");
        try (RedisListQueue<String> q = Queues.strings(client, name, AT_LEAST_ONCE)) {
            MessageId plain = q.send("a");
            MessageId headed = q.send("a", Headers.of("k", "v"));

            List<byte[]> elements = client.lrange(Queues.key(name, "ready").getBytes(StandardCharsets.UTF_8), 0, -1);

            // the list holds the newest first: "<id> <attempt> <enqueued ms> <payload>", the payload as encoded
            assertThat(new String(elements.get(1), StandardCharsets.UTF_8)).matches(plain.value() + " 1 \\d+ a");
            String framed = new String(elements.get(0), StandardCharsets.UTF_8);
            assertThat(framed).startsWith(headed.value() + " 1 ");
            assertThat(framed.substring(framed.indexOf(' ', headed.value().length() + 3) + 1))
                    .as("the payload section, framed with its headers")
                    .isEqualTo("\0qkh6:1:k1:va");
        }
    }

    @Test
    void peek_showsEachMessagesHeaders() {
        try (RedisListQueue<String> q = Queues.strings(client, Queues.unique("peek"), AT_LEAST_ONCE)) {
            q.send("a", HEADERS);
            q.send("b");

            List<WaitingMessage<String>> next = q.peek(10);

            assertThat(next).extracting(WaitingMessage::payload).containsExactly("a", "b");
            assertThat(next).extracting(WaitingMessage::headers).containsExactly(HEADERS, Headers.empty());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aShardedQueue_keepsHeaders_whetherItSendsByKeyOrInTurn(boolean byKey) throws Exception {
        RedisListQueue.Builder<String> b = RedisListQueue.builder(client, Queues.unique("shards"), Codec.utf8())
                .shards(3)
                .visibilityTimeout(Queues.LEASE)
                .blockTimeout(Queues.BLOCK);
        if (byKey) {
            b.shardBy(Function.identity());
        }
        try (RedisListQueue<String> q = b.build()) {
            List<String> payloads = List.of("k0", "k1", "k2", "k3", "k4", "k5");
            for (String p : payloads) {
                q.send(p, Headers.of("key", p));
            }

            List<Delivery<String>> got = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                got.addAll(q.pollBatch(10, 1, SECONDS));
                return got.size() == payloads.size();
            });

            assertThat(got).allSatisfy(d -> assertThat(d.headers()).isEqualTo(Headers.of("key", d.payload())));
            assertThat(q.peek(10)).isEmpty();
            assertThat(q.ackAll(got)).isEqualTo(payloads.size());
        }
    }

    @Test
    void observations_seeOneSendPerCall_andTheirHeadersGoWithEveryMessage() throws Exception {
        Recording observations = new Recording();
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("observed"), Codec.utf8())
                .visibilityTimeout(Queues.LEASE)
                .blockTimeout(Queues.BLOCK)
                .observations(observations)
                .build()) {
            q.send("a", Headers.of("own", "1").with("trace", "the sender's own"));
            q.sendAll(List.of("b", "c"));
            q.sendAll(List.of());

            assertThat(observations.sends).containsExactly("redis-list 1", "redis-list 2");
            List<Headers> handled = new CopyOnWriteArrayList<>();
            Subscription consumer = q.consume(
                    d -> handled.add(d.headers()),
                    ConsumeOptions.builder().concurrency(1).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 3);
            consumer.close();

            // what observations add replaces a header of the same name, in its place
            assertThat(handled)
                    .containsExactly(
                            Headers.of("own", "1").with("trace", "observed"),
                            Headers.of("trace", "observed"),
                            Headers.of("trace", "observed"));
            assertThat(observations.handled).isEqualTo(handled);
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
