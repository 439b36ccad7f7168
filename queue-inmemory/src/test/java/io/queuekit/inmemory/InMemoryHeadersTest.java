package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Codec;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.spi.MessageObservations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What is specific to headers in memory: kept beside the object without a codec and framed with
 * one, through every move of the message; merged with what the observations add, once per send;
 * refused without storing anything. The contract suite checks the rest on every transport.
 */
@Timeout(10)
class InMemoryHeadersTest {
    private static final Headers HEADERS =
            Headers.of("Tenant", "ünïcode ✓ 🚀").with("empty", "").with("note", "a:b 12:\n\0");
    private static final Headers TRACE =
            Headers.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

    private final ManualClock clock = new ManualClock();

    /** Adds {@link #TRACE} to every send, and notes each send and each handling. */
    private static final class Recording implements MessageObservations {
        final List<String> sends = new CopyOnWriteArrayList<>();
        final List<Headers> handled = new CopyOnWriteArrayList<>();
        private final Headers adds;

        Recording(Headers adds) {
            this.adds = adds;
        }

        @Override
        public <R> R sending(Destination destination, int count, Send<R> send) {
            sends.add(destination.kind() + " " + destination.name() + " " + destination.transport() + " x" + count);
            return send.send(adds);
        }

        @Override
        public void handling(Destination destination, Headers headers, Handling handling) throws Exception {
            handled.add(headers);
            handling.run();
        }
    }

    @Test
    void withoutACodec_headersStayWithTheMessage_throughRetryLeaseExpiryDeadLetterAndRequeue() {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("h-objects")
                .clock(clock)
                .maxAttempts(3)
                .build()) {
            MessageId id = q.send("order", HEADERS);

            Delivery<String> first = q.poll();
            assertThat(first.headers()).isEqualTo(HEADERS);
            assertThat(List.copyOf(first.headers().asMap().keySet())).containsExactly("Tenant", "empty", "note");
            first.retry(Duration.ZERO);
            Delivery<String> second = q.poll();
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.headers()).isEqualTo(HEADERS);
            clock.advance(Duration.ofMinutes(1)); // the lease expires
            Delivery<String> third = q.poll();
            assertThat(third.attempt()).isEqualTo(3);
            assertThat(third.headers()).isEqualTo(HEADERS);
            third.deadLetter("poison");

            DeadLetter<String> dead = q.deadLetters().find(id).orElseThrow();
            assertThat(dead.payload()).isEqualTo("order");
            assertThat(dead.headers()).isEqualTo(HEADERS);
            assertThat(q.deadLetters().requeue(id)).isTrue();
            Delivery<String> again = q.poll();
            assertThat(again.attempt()).isEqualTo(1);
            assertThat(again.payload()).isEqualTo("order");
            assertThat(again.headers()).isEqualTo(HEADERS);
        }
    }

    @Test
    void withACodec_headersAreFramedInFrontOfThePayload_andAPayloadThatLooksFramedComesBackAsItself() {
        byte[] lookalike = {0, 'q', 'k', 'h', '3', ':', 'x', -1};
        try (InMemoryMessageQueue<byte[]> q = InMemoryMessageQueue.<byte[]>builder("h-bytes")
                .codec(Codec.bytes())
                .build()) {
            q.send(lookalike);
            q.send(lookalike, HEADERS);

            Delivery<byte[]> plain = q.poll();
            assertThat(plain.payload()).containsExactly(lookalike);
            assertThat(plain.headers()).isEqualTo(Headers.empty());
            Delivery<byte[]> headed = q.poll();
            assertThat(headed.payload()).containsExactly(lookalike);
            assertThat(headed.headers()).isEqualTo(HEADERS);
        }
    }

    @Test
    void atMostOnce_aRetriedMessageKeepsItsHeaders() {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("h-at-most-once")
                .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                .codec(Codec.utf8())
                .build()) {
            q.send("order", HEADERS);
            q.poll().retry(Duration.ZERO);

            Delivery<String> again = q.poll();
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.headers()).isEqualTo(HEADERS);
        }
    }

    @Test
    void everySendForm_runsOnceInsideTheObservations_andEachMessageGetsWhatTheyAdd() {
        Recording observations = new Recording(TRACE);
        try (InMemoryDelayQueue<String> q = InMemoryDelayQueue.<String>builder("h-observed")
                .clock(clock)
                .observations(observations)
                .build()) {
            q.send("a");
            q.send("b", HEADERS);
            q.schedule("c", Duration.ZERO);
            q.scheduleAt(MessageId.of("d"), "d", HEADERS, clock.instant());
            q.sendAll(List.of("e", "f"));
            q.scheduleEach(List.of(
                    Scheduled.at("g", clock.instant()).withHeaders(HEADERS), Scheduled.at("h", clock.instant())));
            q.sendAll(List.of());

            assertThat(observations.sends)
                    .containsExactly(
                            "QUEUE h-observed in-memory x1",
                            "QUEUE h-observed in-memory x1",
                            "QUEUE h-observed in-memory x1",
                            "QUEUE h-observed in-memory x1",
                            "QUEUE h-observed in-memory x2",
                            "QUEUE h-observed in-memory x2");
            Headers both = HEADERS.withAll(TRACE);
            Map<String, Headers> expected =
                    Map.of("a", TRACE, "b", both, "c", TRACE, "d", both, "e", TRACE, "f", TRACE, "g", both, "h", TRACE);
            for (int i = 0; i < expected.size(); i++) {
                Delivery<String> d = q.poll();
                assertThat(d.headers()).as(d.payload()).isEqualTo(expected.get(d.payload()));
                d.ack();
            }
            assertThat(q.poll()).isNull();
        }
    }

    @Test
    void aManagedConsumer_handlesEachMessageInsideTheObservations_givenItsHeaders() throws Exception {
        Recording observations = new Recording(Headers.empty());
        BlockingQueue<Headers> seen = new LinkedBlockingQueue<>();
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("h-consumed")
                        .observations(observations)
                        .build();
                Subscription s = q.consume(d -> seen.add(d.headers()))) {
            q.send("order", HEADERS);

            assertThat(seen.poll(5, TimeUnit.SECONDS)).isEqualTo(HEADERS);
            assertThat(observations.handled).containsExactly(HEADERS);
        }
    }

    @Test
    void headersOverTheLimitOnceTheObservationsAddTheirs_areRefused_storingNothing() {
        Headers big = Headers.of("big", "x".repeat(Headers.MAX_BYTES - 20));
        try (InMemoryDelayQueue<String> q = InMemoryDelayQueue.<String>builder("h-refused")
                .codec(Codec.utf8())
                .observations(new Recording(big))
                .build()) {
            Headers mine = Headers.of("mine", "y".repeat(100));

            assertThatThrownBy(() -> q.send("a", mine))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("over the limit of " + Headers.MAX_BYTES);
            assertThatThrownBy(() -> q.schedule("b", mine, Duration.ofMinutes(1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleEach(List.of(
                            Scheduled.at("c", clock.instant()),
                            Scheduled.at("d", clock.instant()).withHeaders(mine))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.send("e", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("headers");

            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        }
    }

    @Test
    void headersAreCountedApartFromMaxPayloadBytes() {
        try (InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder("h-limit")
                .codec(Codec.utf8())
                .maxPayloadBytes(5)
                .build()) {
            q.send("12345", HEADERS);
            assertThatThrownBy(() -> q.send("123456", HEADERS))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("h-limit");

            assertThat(q.stats().ready()).isEqualTo(1);
            assertThat(q.poll().payload()).isEqualTo("12345");
        }
    }

    @Test
    void broadcasts_carryHeadersToEveryListener_insideTheObservations_andARefusedPublishHandsOutNothing()
            throws Exception {
        Recording observations = new Recording(TRACE);
        BlockingQueue<Map.Entry<String, Headers>> withHeaders = new LinkedBlockingQueue<>();
        BlockingQueue<String> plain = new LinkedBlockingQueue<>();
        try (InMemoryBroadcaster<String> b = InMemoryBroadcaster.<String>builder("h-news")
                .codec(Codec.utf8())
                .observations(observations)
                .build()) {
            b.subscribeWithHeaders((m, h) -> withHeaders.add(Map.entry(m, h)));
            b.subscribe(plain::add);

            assertThat(b.publish("one", HEADERS)).isEqualTo(2);
            assertThatThrownBy(() -> b.publish("refused", Headers.of("big", "x".repeat(Headers.MAX_BYTES - 10))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> b.publish("refused", null)).isInstanceOf(NullPointerException.class);
            b.publishAll(List.of("two", "three"));

            assertThat(withHeaders.poll(5, TimeUnit.SECONDS)).isEqualTo(Map.entry("one", HEADERS.withAll(TRACE)));
            assertThat(withHeaders.poll(5, TimeUnit.SECONDS)).isEqualTo(Map.entry("two", TRACE));
            assertThat(withHeaders.poll(5, TimeUnit.SECONDS)).isEqualTo(Map.entry("three", TRACE));
            assertThat(plain.poll(5, TimeUnit.SECONDS)).isEqualTo("one");
            assertThat(plain.poll(5, TimeUnit.SECONDS)).isEqualTo("two");
            assertThat(plain.poll(5, TimeUnit.SECONDS)).isEqualTo("three");
            assertThat(observations.sends)
                    .containsExactly(
                            "BROADCAST h-news in-memory x1",
                            "BROADCAST h-news in-memory x1",
                            "BROADCAST h-news in-memory x2");
            assertThat(observations.handled).hasSize(6).contains(HEADERS.withAll(TRACE), TRACE);
        }
    }
}
