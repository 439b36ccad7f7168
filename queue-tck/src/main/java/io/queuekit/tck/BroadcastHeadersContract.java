package io.queuekit.tck;

import static io.queuekit.tck.Tck.VARIED;
import static io.queuekit.tck.Tck.assertSameHeaders;
import static io.queuekit.tck.Tck.atTheLimits;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Broadcaster;
import io.queuekit.Headers;
import io.queuekit.tck.Tck.Recorder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of headers on a broadcaster ({@link Broadcaster#publish(Object, Headers)},
 * {@link Broadcaster#subscribeWithHeaders}): a listener subscribed with headers receives each
 * message with the headers it was published with, exactly and in their order, and none for a
 * message published without; a plain {@link io.queuekit.MessageListener} receives the message
 * either way. The headers observations add are in {@link BroadcastObservationsContract}.
 */
interface BroadcastHeadersContract extends BroadcasterContract {

    /** Subscribes a listener that records each message with its headers. */
    private static List<Map.Entry<String, Headers>> recordWithHeaders(Broadcaster<String> b) {
        List<Map.Entry<String, Headers>> heard = new CopyOnWriteArrayList<>();
        b.subscribeWithHeaders((m, h) -> heard.add(Map.entry(m, h)));
        return heard;
    }

    /** Waits until {@code n} messages were heard; their headers by message. */
    private static Map<String, Headers> awaitHeard(List<Map.Entry<String, Headers>> heard, int n) {
        await().untilAsserted(() -> assertThat(heard).hasSize(n));
        Map<String, Headers> byMessage = new HashMap<>();
        heard.forEach(e -> byMessage.put(e.getKey(), e.getValue()));
        assertThat(byMessage).as("distinct messages").hasSize(n);
        return byMessage;
    }

    @Test
    default void publish_withHeaders_reachesAHeadersListener_withThemExactly() {
        Broadcaster<String> b = newBroadcaster();
        List<Map.Entry<String, Headers>> heard = recordWithHeaders(b);
        Headers one = Headers.of("n", "1");

        b.publish("varied", VARIED);
        b.publish("one", one);
        b.publish("publish(message)");
        b.publish("publish(message, Headers.empty())", Headers.empty());

        Map<String, Headers> got = awaitHeard(heard, 4);
        assertSameHeaders(got.get("varied"), VARIED, "a message published with headers");
        assertSameHeaders(got.get("one"), one, "another");
        assertThat(got.get("publish(message)").isEmpty()).isTrue();
        assertThat(got.get("publish(message, Headers.empty())").isEmpty()).isTrue();
    }

    @Test
    default void publish_withTheMostHeadersAllowed_deliversThemExactly() {
        Broadcaster<String> b = newBroadcaster();
        List<Map.Entry<String, Headers>> heard = recordWithHeaders(b);

        b.publish("payload", atTheLimits());
        b.publish("", atTheLimits());

        Map<String, Headers> got = awaitHeard(heard, 2);
        assertSameHeaders(got.get("payload"), atTheLimits(), "a message");
        assertSameHeaders(got.get(""), atTheLimits(), "an empty message");
    }

    @Test
    default void aMessageListener_receivesMessagesPublishedWithHeaders() {
        Broadcaster<String> b = newBroadcaster();
        Recorder plain = record(b);

        b.publish("with headers", VARIED);
        b.publish("without");

        await().untilAsserted(() -> assertThat(plain.received).containsExactlyInAnyOrder("with headers", "without"));
    }

    @Test
    default void publishAll_publishesWithoutHeaders() {
        Broadcaster<String> b = newBroadcaster();
        List<Map.Entry<String, Headers>> heard = recordWithHeaders(b);

        b.publishAll(List.of("a", "b"));

        awaitHeard(heard, 2)
                .forEach(
                        (m, h) -> assertThat(h.isEmpty()).as("headers of %s", m).isTrue());
    }

    /**
     * A message that looks like headers stored in front of a payload (a well-formed frame of the
     * in-memory and Redis transports) is a message like any other, with headers or without.
     */
    @Test
    default void aMessageThatLooksLikeStoredHeaders_comesBackUnchanged() {
        Broadcaster<String> b = newBroadcaster();
        List<Map.Entry<String, Headers>> heard = recordWithHeaders(b);
        String framed = "\u0000qkh13:4:name5:valuepayload";

        b.publish(framed);
        b.publish(framed, Headers.of("real", "header"));

        await().untilAsserted(() -> assertThat(heard).hasSize(2));
        assertThat(heard).extracting(Map.Entry::getKey).containsOnly(framed);
        assertThat(heard)
                .extracting(Map.Entry::getValue)
                .containsExactlyInAnyOrder(Headers.empty(), Headers.of("real", "header"));
    }

    @Test
    default void publish_withNullHeaders_throwsNullPointerException_andPublishesNothing() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);

        assertThatThrownBy(() -> b.publish("refused", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() -> b.subscribeWithHeaders(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("listener");

        assertThat(b.publish("after")).as("subscriptions").isEqualTo(1);
        await().untilAsserted(() -> assertThat(r.received).containsExactly("after"));
    }
}
