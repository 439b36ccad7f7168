package io.queuekit.tck;

import static io.queuekit.tck.BadInputCatalogue.assertRefusedLeavingAllAsItWas;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.payloads;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.tck.BadInputCatalogue.QueueCase;
import io.queuekit.tck.BadInputCatalogue.SeededQueue;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract for bad input: every call of {@link BadInputCatalogue#queueCases()} is refused with
 * the exception it names and a message that says what was wrong, and leaves the stored messages as
 * they were; edge cases that are accepted (empty payloads and batches, timeouts that overflow)
 * work. The cases for delay queues are in {@link DelayBadInputContract}.
 */
interface BadInputContract extends QueueContract {

    @Test
    default void send_null_throwsNullPointerException_andStoresNothing() {
        MessageQueue<String> q = newQueue();
        assertThatThrownBy(() -> q.send(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.sendAll(null)).isInstanceOf(NullPointerException.class);
        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
    }

    @Test
    default void sendAll_withANullElement_throwsAndStoresNothing() {
        MessageQueue<String> q = newQueue();
        assertThatThrownBy(() -> q.sendAll(Arrays.asList("a", null, "c"))).isInstanceOf(NullPointerException.class);
        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
    }

    @Test
    default void pollAndPollBatch_refuseNegativeTimeouts_badBatchSizes_andNullUnits() {
        MessageQueue<String> q = newQueue();
        q.send("kept");
        assertThatThrownBy(() -> q.poll(-1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.poll(1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.pollBatch(5, -1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.pollBatch(0, 1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.pollBatch(5, 1, null)).isInstanceOf(NullPointerException.class);
        // refused calls took nothing
        assertThat(q.stats().ready()).isEqualTo(1);
        assertThat(q.stats().inFlight()).isZero();
    }

    @Test
    default void retry_refusesNullAndNegativeDelays_leavingTheDeliveryUnsettled() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);

        assertThatThrownBy(() -> d.retry(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> d.retry(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);

        assertThat(q.stats().delayed()).isZero();
        assertThat(d.ack()).as("still unsettled after the refused retries").isTrue();
    }

    @Test
    default void extendLease_refusesDurationsOutOfRange_leavingTheDeliveryAsItWas() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);

        assertThatThrownBy(() -> d.extendLease(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> d.extendLease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.extendLease(Duration.ofHours(13))).isInstanceOf(IllegalArgumentException.class);

        assertThat(d.ack()).isTrue();
    }

    @Test
    default void consume_refusesNulls() {
        MessageQueue<String> q = newQueue();
        assertThatThrownBy(() -> q.consume(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.consume(d -> {}, null)).isInstanceOf(NullPointerException.class);
    }

    // ---- the longest retry delay is DelayQueue.MAX_DELAY, on every transport

    @Test
    default void retry_beyondTheMaximumDelay_isRefused_leavingTheDeliveryUnsettled() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("x", "y"));
        Delivery<String> d = next(q);

        assertThatThrownBy(() -> d.retry(DelayQueue.MAX_DELAY.plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DelayQueue.MAX_DELAY");
        assertThat(q.stats().delayed()).isZero();
        assertThat(d.ack()).as("still unsettled after the refused retry").isTrue();

        assertThat(next(q).retry(DelayQueue.MAX_DELAY)).as("the maximum itself").isTrue();
        assertThat(q.stats().delayed()).isEqualTo(1);
    }

    // ---- one payload limit on every transport: 1 MiB of encoded bytes unless set

    @Test
    default void send_ofAPayloadAboveTheDefaultLimitOf1MiB_isRefused_andStoresNothing() {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        MessageQueue<String> q = newQueue();
        String atLimit = "x".repeat(1 << 20);

        assertThatThrownBy(() -> q.send(atLimit + "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("above the limit of 1048576 bytes (maxPayloadBytes)");
        assertThatThrownBy(() -> q.sendAll(List.of("fine", atLimit + "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(q.stats().total()).isZero();

        q.send(atLimit);
        assertThat(q.stats().total()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.queuekit.tck.BadInputCatalogue#queueCases")
    default void queueCall_isRefusedClearly_andChangesNothing(QueueCase c) throws Exception {
        SeededQueue f = seededQueue();
        assumeTrue(
                c.appliesTo().test(f.queue().semantics()),
                c.name() + ": not for " + f.queue().semantics());

        assertRefusedLeavingAllAsItWas(c, f, f.queue()::stats);
    }

    @Test
    default void emptyPayload_andEmptyBatch_areAccepted() throws Exception {
        SeededQueue f = seededQueue();
        QueueStats before = f.queue().stats();
        assertThat(f.queue().sendAll(List.of())).isEmpty();
        assertThat(f.queue().stats()).as("an empty batch stores nothing").isEqualTo(before);

        f.queue().send("");

        assertThat(List.of(next(f.queue()).payload(), next(f.queue()).payload()))
                .as("the ready messages")
                .containsExactlyInAnyOrder(f.ready(), "");
    }

    @Test
    default void overflowingTimeouts_wait() throws Exception {
        SeededQueue f = seededQueue();
        MessageQueue<String> q = f.queue();
        assertThat(q.poll(Long.MAX_VALUE, TimeUnit.DAYS).payload())
                .as("a ready message, at once")
                .isEqualTo(f.ready());
        q.send("d");
        assertThat(payloads(q.pollBatch(Integer.MAX_VALUE, Long.MAX_VALUE, TimeUnit.NANOSECONDS)))
                .containsExactly("d");

        Call<Delivery<String>> poll = call("poll", () -> q.poll(Long.MAX_VALUE, TimeUnit.DAYS));
        Tck.awaitParked(poll.thread(), quietPeriod());
        q.send("e");

        assertThat(poll.get().payload()).as("a message sent while waiting").isEqualTo("e");
    }
}
