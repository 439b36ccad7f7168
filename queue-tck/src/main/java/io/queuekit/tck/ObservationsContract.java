package io.queuekit.tck;

import static io.queuekit.tck.RecordingObservations.HEADER;
import static io.queuekit.tck.Tck.VARIED;
import static io.queuekit.tck.Tck.assertSameHeaders;
import static io.queuekit.tck.Tck.atTheLimits;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.plus;
import static io.queuekit.tck.Tck.quickOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Scheduled;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.MessageObservations.Destination;
import io.queuekit.tck.RecordingObservations.Handled;
import io.queuekit.tck.RecordingObservations.Sent;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of a queue's {@link MessageObservations} (given by {@link QueueConfig#observations()}):
 * every call that stores messages (send, sendAll, the schedule forms) runs once inside
 * {@code sending}, with the count of its messages, and stores each message with the headers the
 * observations add set over its own; a managed consumer's handler runs inside {@code handling},
 * given the message's headers. A transport's contract test must give the config's observations to
 * its builder; these tests fail where it does not.
 */
interface ObservationsContract extends QueueContract {

    /** A queue whose observations record what it shows them. */
    private MessageQueue<String> observedQueue(RecordingObservations observed) {
        return newQueue(config().withObservations(observed));
    }

    /** The same as a delay queue; skips the test where the transport has none. */
    private DelayQueue<String> observedDelayQueue(RecordingObservations observed) {
        MessageQueue<String> q = observedQueue(observed);
        assumeTrue(
                q instanceof DelayQueue<String> && q.semantics().delays(),
                "the transport promises no delays: " + q.semantics());
        return (DelayQueue<String>) q;
    }

    private static Destination destination(MessageQueue<String> q) {
        return new Destination(q.name(), q.semantics().transport(), MessageObservations.Kind.QUEUE);
    }

    /** Asserts that the observations saw these sends (of these counts) to {@code q}, and no others. */
    private static List<Sent> assertSent(RecordingObservations observed, MessageQueue<String> q, Integer... counts) {
        List<Sent> sent = observed.sent();
        assertThat(sent)
                .as("sends the observations saw (a transport's createQueue gives config.observations() to its"
                        + " builder)")
                .extracting(Sent::count)
                .containsExactly(counts);
        assertThat(sent).extracting(Sent::destination).containsOnly(destination(q));
        return sent;
    }

    @Test
    default void send_runsInsideTheObservations_andStoresTheHeadersTheyAdd_afterItsOwn() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        MessageQueue<String> q = observedQueue(observed);

        q.send("with headers", VARIED);
        q.send("without");

        List<Sent> sent = assertSent(observed, q, 1, 1);
        Map<String, Delivery<String>> got = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            Delivery<String> d = next(q);
            got.put(d.payload(), d);
        }
        assertSameHeaders(
                got.get("with headers").headers(),
                plus(VARIED, HEADER, sent.get(0).value()),
                "a message sent with headers, observed");
        assertSameHeaders(
                got.get("without").headers(), Headers.of(HEADER, sent.get(1).value()), "a message sent without");
    }

    @Test
    default void aHeaderTheObservationsAdd_replacesTheSendersOfTheSameName() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        MessageQueue<String> q = observedQueue(observed);
        Headers own = Headers.of(HEADER, "the sender's").with("after", "kept");

        q.send("x", own);

        Sent sent = assertSent(observed, q, 1).get(0);
        Headers got = next(q).headers();
        assertThat(got.get(HEADER)).isEqualTo(sent.value());
        assertThat(got.get("after")).isEqualTo("kept");
        assertThat(got.size()).isEqualTo(2);
    }

    @Test
    default void sendAll_isOneSend_ofEveryMessage() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        MessageQueue<String> q = observedQueue(observed);

        q.sendAll(List.of("a", "b", "c"));

        String value = assertSent(observed, q, 3).get(0).value();
        for (int i = 0; i < 3; i++) {
            Delivery<String> d = next(q);
            assertSameHeaders(d.headers(), Headers.of(HEADER, value), d.payload());
        }
    }

    @Test
    default void everyScheduleForm_isOneSend_ofItsMessages() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        DelayQueue<String> q = observedDelayQueue(observed);
        Instant past = time().now().minus(Duration.ofHours(1));
        Headers own = Headers.of("own", "header");

        q.schedule("schedule", own, Duration.ZERO);
        q.scheduleAt("scheduleAt", own, past);
        q.schedule(MessageId.of("chosen-1"), "schedule(id)", own, Duration.ZERO);
        q.scheduleAt(MessageId.of("chosen-2"), "scheduleAt(id)", own, past);
        q.scheduleAll(List.of("scheduleAll-1", "scheduleAll-2"), Duration.ZERO);
        q.scheduleAllAt(List.of("scheduleAllAt"), past);
        q.scheduleEach(
                List.of(Scheduled.at("scheduleEach-1", past).withHeaders(own), Scheduled.at("scheduleEach-2", past)));

        List<Sent> sent = assertSent(observed, q, 1, 1, 1, 1, 2, 1, 2);
        Map<String, Headers> expected = new HashMap<>();
        List<List<String>> calls = List.of(
                List.of("schedule"),
                List.of("scheduleAt"),
                List.of("schedule(id)"),
                List.of("scheduleAt(id)"),
                List.of("scheduleAll-1", "scheduleAll-2"),
                List.of("scheduleAllAt"),
                List.of("scheduleEach-1", "scheduleEach-2"));
        for (int i = 0; i < calls.size(); i++) {
            for (String payload : calls.get(i)) {
                boolean withOwn = !payload.startsWith("scheduleAll") && !payload.equals("scheduleEach-2");
                expected.put(
                        payload,
                        plus(
                                withOwn ? own : Headers.empty(),
                                HEADER,
                                sent.get(i).value()));
            }
        }
        for (int i = 0; i < expected.size(); i++) {
            Delivery<String> d = next(q);
            assertSameHeaders(d.headers(), expected.get(d.payload()), d.payload());
        }
    }

    /** The observations' headers count toward {@link Headers}' limits, checked before anything is stored. */
    @Test
    default void send_whoseHeadersTheObservationsTakePastTheLimit_isRefused_andStoresNothing() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        MessageQueue<String> q = observedQueue(observed);
        Headers most = atTheLimits();
        Map<String, String> oneLess = new LinkedHashMap<>(most.asMap());
        oneLess.remove(oneLess.keySet().iterator().next());

        assertThatThrownBy(() -> q.send("refused", most))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Integer.toString(Headers.MAX_COUNT));

        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
        q.send("one header fewer", Headers.of(oneLess));
        assertThat(next(q).headers().size()).isEqualTo(Headers.MAX_COUNT);
    }

    @Test
    default void consume_runsEachHandlingInsideTheObservations_givenTheMessagesHeaders() throws Exception {
        RecordingObservations observed = new RecordingObservations();
        MessageQueue<String> q = observedQueue(observed);
        List<Headers> inside = new CopyOnWriteArrayList<>();
        List<Delivery<String>> handled = new CopyOnWriteArrayList<>();
        closeLater(q.consume(
                d -> {
                    inside.add(observed.handlingOnThisThread());
                    handled.add(d);
                    if (d.attempt() == 1) {
                        throw new IllegalStateException("fails once");
                    }
                },
                quickOptions(1, Duration.ZERO)));

        q.send("x", VARIED);

        await().untilAsserted(() -> {
            assertThat(handled).hasSize(2);
            assertThat(q.stats().total()).isZero();
        });
        Headers stored = plus(VARIED, HEADER, assertSent(observed, q, 1).get(0).value());
        assertThat(observed.handled())
                .as("handlings the observations saw")
                .containsExactly(new Handled(destination(q), stored), new Handled(destination(q), stored));
        assertThat(inside).as("what the handler ran inside, on each attempt").containsExactly(stored, stored);
        for (Delivery<String> d : handled) {
            assertSameHeaders(d.headers(), stored, "attempt " + d.attempt());
        }
    }
}
