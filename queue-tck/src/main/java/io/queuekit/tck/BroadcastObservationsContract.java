package io.queuekit.tck;

import static io.queuekit.tck.RecordingObservations.HEADER;
import static io.queuekit.tck.Tck.VARIED;
import static io.queuekit.tck.Tck.assertSameHeaders;
import static io.queuekit.tck.Tck.atTheLimits;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.plus;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Broadcaster;
import io.queuekit.Headers;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.MessageObservations.Destination;
import io.queuekit.tck.RecordingObservations.Handled;
import io.queuekit.tck.RecordingObservations.Sent;
import io.queuekit.tck.Tck.Recorder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of a broadcaster's {@link MessageObservations}: every publish and publishAll runs
 * once inside {@code sending}, with the count of its messages, and publishes each message with the
 * headers the observations add set over its own; every listener, with headers or without, runs
 * inside {@code handling}, given the message's headers. A transport's contract test must give the
 * observations to its builder; these tests fail where it does not.
 */
interface BroadcastObservationsContract extends BroadcasterContract {

    /** A message as a listener received it, and the headers of the handling it ran inside. */
    record Heard(String message, Headers headers, Headers inside) {}

    /** Subscribes a listener with headers that records what it hears, and inside what. */
    private static List<Heard> recordInside(Broadcaster<String> b, RecordingObservations observed) {
        List<Heard> heard = new CopyOnWriteArrayList<>();
        b.subscribeWithHeaders((m, h) -> heard.add(new Heard(m, h, observed.handlingOnThisThread())));
        return heard;
    }

    private static Destination destination(Broadcaster<String> b) {
        return new Destination(b.name(), b.semantics().transport(), MessageObservations.Kind.BROADCAST);
    }

    /** Asserts that the observations saw these publishes (of these counts) to {@code b}, and no others. */
    private static List<Sent> assertSent(RecordingObservations observed, Broadcaster<String> b, Integer... counts) {
        List<Sent> sent = observed.sent();
        assertThat(sent)
                .as("publishes the observations saw (a transport's createBroadcaster gives them to its builder)")
                .extracting(Sent::count)
                .containsExactly(counts);
        assertThat(sent).extracting(Sent::destination).containsOnly(destination(b));
        return sent;
    }

    @Test
    default void publish_runsInsideTheObservations_andCarriesTheHeadersTheyAdd_toListenersInsideThem() {
        RecordingObservations observed = new RecordingObservations();
        Broadcaster<String> b = newBroadcaster(observed);
        List<Heard> heard = recordInside(b, observed);

        b.publish("with headers", VARIED);
        b.publish("without");

        await().untilAsserted(() -> assertThat(heard).hasSize(2));
        List<Sent> sent = assertSent(observed, b, 1, 1);
        Map<String, Headers> expected = Map.of(
                "with headers", plus(VARIED, HEADER, sent.get(0).value()),
                "without", Headers.of(HEADER, sent.get(1).value()));
        for (Heard h : heard) {
            assertSameHeaders(h.headers(), expected.get(h.message()), h.message());
            assertThat(h.inside()).as("the handling %s ran inside", h.message()).isEqualTo(h.headers());
        }
        assertThat(observed.handled())
                .as("handlings the observations saw")
                .containsExactlyInAnyOrder(
                        new Handled(destination(b), expected.get("with headers")),
                        new Handled(destination(b), expected.get("without")));
    }

    @Test
    default void publishAll_isOneSend_ofEveryMessage() {
        RecordingObservations observed = new RecordingObservations();
        Broadcaster<String> b = newBroadcaster(observed);
        List<Heard> heard = recordInside(b, observed);

        b.publishAll(List.of("a", "b", "c"));

        await().untilAsserted(() -> assertThat(heard).hasSize(3));
        String value = assertSent(observed, b, 3).get(0).value();
        Map<String, Headers> got = new HashMap<>();
        heard.forEach(h -> got.put(h.message(), h.headers()));
        assertThat(got)
                .isEqualTo(Map.of(
                        "a",
                        Headers.of(HEADER, value),
                        "b",
                        Headers.of(HEADER, value),
                        "c",
                        Headers.of(HEADER, value)));
    }

    @Test
    default void aMessageListener_runsInsideTheObservations_too() {
        RecordingObservations observed = new RecordingObservations();
        Broadcaster<String> b = newBroadcaster(observed);
        List<Headers> inside = new CopyOnWriteArrayList<>();
        b.subscribe(m -> inside.add(observed.handlingOnThisThread()));

        b.publish("x");

        await().untilAsserted(() -> assertThat(inside).hasSize(1));
        String value = assertSent(observed, b, 1).get(0).value();
        assertThat(inside.get(0)).isEqualTo(Headers.of(HEADER, value));
    }

    /** The observations' headers count toward {@link Headers}' limits, checked before anything is published. */
    @Test
    default void publish_whoseHeadersTheObservationsTakePastTheLimit_isRefused_andPublishesNothing() {
        RecordingObservations observed = new RecordingObservations();
        Broadcaster<String> b = newBroadcaster(observed);
        Recorder r = record(b);

        assertThatThrownBy(() -> b.publish("refused", atTheLimits()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Integer.toString(Headers.MAX_COUNT));

        b.publish("after");
        await().untilAsserted(() -> assertThat(r.received).containsExactly("after"));
    }
}
