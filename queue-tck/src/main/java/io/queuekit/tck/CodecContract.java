package io.queuekit.tck;

import static io.queuekit.tck.Tck.PICKY;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.SerializationException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of codec failures: a payload the queue's codec cannot encode or decode fails with
 * {@link io.queuekit.SerializationException} on every transport, stores nothing when sent, and can
 * still be settled when received. Skipped in a run of a transport that stores payloads without a
 * codec ({@link QueueContract#appliesCodec()}).
 */
interface CodecContract extends QueueContract {

    /**
     * A queue whose codec fails on purpose; skips the test in a run without a codec. No test here
     * waits for a lease to end, so its leases are long: a host that stalls the test for longer
     * than the suite's visibility timeout (1 s on real time) between a take and its settling must
     * not turn a codec test into a lease test.
     */
    private MessageQueue<String> pickyQueue() {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        return newQueue(config().withCodec(PICKY).withVisibilityTimeout(Duration.ofMinutes(10)));
    }

    @Test
    default void send_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing() {
        MessageQueue<String> q = pickyQueue();

        assertThatThrownBy(() -> q.send("unencodable"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("picky codec");
        assertThatThrownBy(() -> q.sendAll(List.of("fine", "unencodable"))).isInstanceOf(SerializationException.class);

        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void payload_ofAnUndecodableMessage_throwsSerializationException_andItCanStillBeSettled() throws Exception {
        MessageQueue<String> q = pickyQueue();
        MessageId id = q.send("undecodable");
        Delivery<String> d = next(q);

        assertThatThrownBy(d::payload)
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("picky codec");

        assertThat(d.deadLetter("cannot read it")).isTrue();
        List<DeadLetter<String>> dead = q.deadLetters().list(10);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).id()).isEqualTo(id);
        assertThat(dead.get(0).payload()).as("listed, with no payload").isNull();
        assertThat(dead.get(0).reason()).startsWith("cannot read it");
    }

    @Test
    default void consume_deadLettersAnUndecodableMessageAtOnce_andServesTheOthers() throws Exception {
        MessageQueue<String> q = pickyQueue();
        List<String> handled = new CopyOnWriteArrayList<>();
        closeLater(q.consume(d -> handled.add(d.payload()), quickOptions(1, Duration.ZERO)));

        q.sendAll(List.of("undecodable", "fine"));

        await().untilAsserted(() -> {
            assertThat(handled).containsExactly("fine");
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        });
        DeadLetter<String> dl = q.deadLetters().list(1).get(0);
        assertThat(dl.attempts()).as("no retry can decode it").isEqualTo(1);
        assertThat(dl.reason()).startsWith("undecodable");
        assertThat(dl.payload()).isNull();
    }

    // ---- listing an undecodable dead letter never throws, and its reason says so once

    @Test
    default void deadLetters_list_ofAnUndecodableBody_addsToTheReasonThatThePayloadIsUndecodable() throws Exception {
        MessageQueue<String> q = pickyQueue();
        q.send("undecodable");
        assertThat(next(q).deadLetter("cannot read it")).as("dead-lettered").isTrue();

        DeadLetter<String> dl = q.deadLetters().list(10).get(0);
        assertThat(dl.payload()).isNull();
        assertThat(dl.reason())
                .startsWith("cannot read it (payload undecodable: ")
                .contains("picky codec")
                .endsWith(")");
    }

    @Test
    default void deadLetters_list_ofAMessageDeadLetteredAsUndecodable_keepsItsReasonAsItIs() throws Exception {
        MessageQueue<String> q = pickyQueue();
        q.send("undecodable");
        closeLater(q.consume(d -> d.payload(), quickOptions(1, Duration.ZERO)));
        await().untilAsserted(() -> assertThat(q.stats().dead()).isEqualTo(1));

        DeadLetter<String> dl = q.deadLetters().list(10).get(0);
        assertThat(dl.payload()).isNull();
        assertThat(dl.reason()).startsWith("undecodable").doesNotContain(" (payload");
    }
}
