package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.VARIED;
import static io.queuekit.tck.Tck.assertSameHeaders;
import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.atTheLimits;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.quickOptionsBuilder;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of headers on a queue ({@link MessageQueue#send(Object, Headers)},
 * {@link Delivery#headers()}): every delivery of a message returns the headers it was sent with,
 * exactly and in their order, whichever way it is received, through retries, redelivery after a
 * lease, dead letters and requeue, and to managed consumers; a message sent without headers has
 * none. The delay queue's forms are in {@link DelayHeadersContract}, the headers observations add in
 * {@link ObservationsContract}.
 */
interface HeadersContract extends QueueContract {

    /** Takes {@code n} deliveries, unsettled, by id. */
    private static Map<MessageId, Delivery<String>> takeById(MessageQueue<String> q, int n)
            throws InterruptedException {
        Map<MessageId, Delivery<String>> got = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Delivery<String> d = next(q);
            got.put(d.id(), d);
        }
        assertThat(got).as("distinct messages").hasSize(n);
        return got;
    }

    @Test
    default void send_withHeaders_deliversThemExactly_inTheirOrder() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("with headers", VARIED);

        Delivery<String> d = next(q);

        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("with headers");
        assertThat(d.attempt()).isEqualTo(1);
        assertSameHeaders(d.headers(), VARIED, "the delivery");
        assertThat(d.ack()).isTrue();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void send_withoutHeaders_deliversNone() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("send(payload)");
        q.send("send(payload, Headers.empty())", Headers.empty());
        q.sendAll(List.of("sendAll"));

        for (Delivery<String> d : takeById(q, 3).values()) {
            assertThat(d.headers()).as("headers of %s", d.payload()).isNotNull();
            assertThat(d.headers().isEmpty())
                    .as("no headers for %s", d.payload())
                    .isTrue();
            assertThat(d.headers()).isEqualTo(Headers.empty());
        }
    }

    @Test
    default void send_withTheMostHeadersAllowed_deliversThemExactly() throws Exception {
        MessageQueue<String> q = newQueue();
        Headers most = atTheLimits();
        MessageId withPayload = q.send("payload", most);
        MessageId empty = q.send("", most);

        Map<MessageId, Delivery<String>> got = takeById(q, 2);

        assertThat(got.get(withPayload).payload()).isEqualTo("payload");
        assertSameHeaders(got.get(withPayload).headers(), most, "a message with a payload");
        assertThat(got.get(empty).payload()).isEmpty();
        assertSameHeaders(got.get(empty).headers(), most, "a message with an empty payload");
    }

    /**
     * Headers are counted apart from the payload: a payload at the queue's limit is accepted with
     * the most headers allowed, and one a byte over it is refused with or without them.
     */
    @Test
    default void send_ofAPayloadAtItsLimit_withTheMostHeadersAllowed_isAccepted() throws Exception {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        MessageQueue<String> q = newQueue();
        String atLimit = "x".repeat(1 << 20);

        assertThatThrownBy(() -> q.send(atLimit + "x", Headers.of("small", "header")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(maxPayloadBytes)");
        assertThat(q.stats().total()).isZero();

        q.send(atLimit, atTheLimits());

        Delivery<String> d = next(q);
        assertThat(d.payload()).isEqualTo(atLimit);
        assertSameHeaders(d.headers(), atTheLimits(), "a payload at its limit");
    }

    /**
     * A payload that looks like headers stored in front of a payload (a well-formed frame of the
     * in-memory and Redis transports) is a payload like any other, with headers or without.
     */
    @Test
    default void aPayloadThatLooksLikeStoredHeaders_comesBackUnchanged() throws Exception {
        MessageQueue<String> q = newQueue();
        String framed = "\u0000qkh13:4:name5:valuepayload";
        MessageId without = q.send(framed);
        MessageId with = q.send(framed, Headers.of("real", "header"));

        Map<MessageId, Delivery<String>> got = takeById(q, 2);

        assertThat(got.get(without).payload()).isEqualTo(framed);
        assertThat(got.get(without).headers().isEmpty()).isTrue();
        assertThat(got.get(with).payload()).isEqualTo(framed);
        assertSameHeaders(got.get(with).headers(), Headers.of("real", "header"), "a message with headers");
    }

    @Test
    default void everyWayOfReceiving_returnsEachMessagesOwnHeaders() throws Exception {
        MessageQueue<String> q = newQueue();
        Map<MessageId, Headers> sent = new HashMap<>();
        for (int i = 0; i < 6; i++) {
            Headers h = i == 3 ? Headers.empty() : VARIED.with("n", Integer.toString(i));
            sent.put(q.send("m" + i, h), h);
        }

        List<Delivery<String>> got = new ArrayList<>();
        got.add(await().until(q::poll, Objects::nonNull));
        got.add(next(q));
        got.add(call("take", q::take).get());
        while (got.size() < 6) {
            got.addAll(q.pollBatch(6 - got.size(), GENEROUS_MS, MILLISECONDS));
        }

        assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrderElementsOf(sent.keySet());
        for (Delivery<String> d : got) {
            assertSameHeaders(d.headers(), sent.get(d.id()), d.payload());
        }
    }

    @Test
    default void retry_keepsTheHeaders_onEveryAttempt() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("retried", VARIED);
        assertThat(next(q).retry(Duration.ZERO)).isTrue();

        Delivery<String> second = next(q);
        assertThat(second.id()).isEqualTo(id);
        assertThat(second.attempt()).isEqualTo(2);
        assertSameHeaders(second.headers(), VARIED, "attempt 2, retried at once");

        Duration delay = visibilityTimeout().dividedBy(2);
        assertThat(second.retry(delay)).isTrue();
        advancePast(delay);

        Delivery<String> third = next(q);
        assertThat(third.attempt()).isEqualTo(3);
        assertSameHeaders(third.headers(), VARIED, "attempt 3, retried after a delay");
        assertThat(third.ack()).isTrue();
    }

    @Test
    default void redelivery_afterTheLease_keepsTheHeaders() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        MessageId id = q.send("abandoned", VARIED);
        next(q);

        advancePastLease();

        Delivery<String> again = next(q);
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.attempt()).isEqualTo(2);
        assertSameHeaders(again.headers(), VARIED, "the redelivery");
        assertThat(again.ack()).isTrue();
    }

    @Test
    default void deadLetter_keepsTheHeaders_andRequeueDeliversThemAgain() throws Exception {
        MessageQueue<String> q = newQueue();
        Headers other = Headers.of("n", "3");
        MessageId withVaried = q.send("varied", VARIED);
        MessageId without = q.send("without");
        MessageId withOther = q.send("other", other);
        for (Delivery<String> d : takeById(q, 3).values()) {
            assertThat(d.deadLetter("no")).isTrue();
        }

        Map<MessageId, DeadLetter<String>> dead = new HashMap<>();
        q.deadLetters().list(10).forEach(dl -> dead.put(dl.id(), dl));
        assertThat(dead).hasSize(3);
        assertSameHeaders(dead.get(withVaried).headers(), VARIED, "the dead letter listed");
        assertSameHeaders(dead.get(withOther).headers(), other, "another dead letter listed");
        assertThat(dead.get(without).headers().isEmpty())
                .as("a dead letter sent without headers")
                .isTrue();
        assertSameHeaders(q.deadLetters().find(withVaried).orElseThrow().headers(), VARIED, "the dead letter found");

        assertThat(q.deadLetters().requeue(withVaried)).isTrue();
        Delivery<String> requeued = next(q);
        assertThat(requeued.id()).isEqualTo(withVaried);
        assertThat(requeued.attempt()).isEqualTo(1);
        assertSameHeaders(requeued.headers(), VARIED, "the requeued delivery");
        assertThat(requeued.ack()).isTrue();

        assertThat(q.deadLetters().requeueAll()).isEqualTo(2);
        Map<MessageId, Delivery<String>> again = takeById(q, 2);
        assertSameHeaders(again.get(withOther).headers(), other, "a delivery requeued with all");
        assertThat(again.get(without).headers().isEmpty()).isTrue();
    }

    @Test
    default void leaseExpiry_onTheLastAttempt_keepsTheHeadersInTheDeadLetters() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(1));
        assumeLeases(q);
        MessageId id = q.send("poison", VARIED);
        next(q);

        advancePastLease();

        await().untilAsserted(() -> {
            assertThat(q.poll()).as("a delivery past the maximum attempts").isNull();
            assertThat(q.deadLetters().size()).isEqualTo(1);
        });
        DeadLetter<String> dl = q.deadLetters().list(1).get(0);
        assertThat(dl.id()).isEqualTo(id);
        assertSameHeaders(dl.headers(), VARIED, "a dead letter whose lease expired");
        assertThat(q.deadLetters().requeue(id)).isTrue();
        assertSameHeaders(next(q).headers(), VARIED, "its requeued delivery");
    }

    @Test
    default void consume_handlerSeesTheHeaders_onEveryAttempt() throws Exception {
        MessageQueue<String> q = newQueue();
        List<Delivery<String>> handled = new CopyOnWriteArrayList<>();
        closeLater(q.consume(
                d -> {
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
        for (Delivery<String> d : handled) {
            assertSameHeaders(d.headers(), VARIED, "attempt " + d.attempt() + " handled");
        }
    }

    @Test
    default void consume_inBatches_handlerSeesEachMessagesOwnHeaders() throws Exception {
        MessageQueue<String> q = newQueue();
        Map<String, Headers> sent = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            Headers h = i % 3 == 0 ? Headers.empty() : Headers.of("n", Integer.toString(i));
            sent.put("m" + i, h);
            q.send("m" + i, h);
        }
        Map<String, Headers> seen = new ConcurrentHashMap<>();

        closeLater(q.consume(
                d -> seen.put(d.payload(), d.headers()),
                quickOptionsBuilder(1, Duration.ZERO).batchSize(5).build()));

        await().untilAsserted(() -> {
            assertThat(seen).hasSize(10);
            assertThat(q.stats().total()).isZero();
        });
        assertThat(seen).isEqualTo(sent);
    }

    @Test
    default void send_withNullHeaders_throwsNullPointerException_andStoresNothing() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("kept");
        QueueStats before = q.stats();

        assertThatThrownBy(() -> q.send("refused", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() -> q.send(null, VARIED))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("payload");

        assertThat(q.stats()).isEqualTo(before);
        assertThat(BadInputCatalogue.drainReady(q)).containsExactly("kept");
    }
}
