package io.queuekit.tck;

import static io.queuekit.tck.Tck.PICKY;
import static io.queuekit.tck.Tck.assertHandedOutByDueTime;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.payloads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.DelayQueue#scheduleAll} and {@code scheduleAllAt}: a batch
 * falls due together, never early, each message once under its own id, in the collection's order
 * when due time orders the queue; a batch is checked in full before any of it is stored.
 */
interface BatchSchedulingContract extends DelayQueueContract {

    /** Hands out {@code n} messages, none before {@code due} on the transport's clock; acks each. */
    private List<Delivery<String>> takeNoneBefore(DelayQueue<String> q, int n, Instant due) throws Exception {
        if (time().isVirtual()) {
            time().advance(Duration.between(time().now(), due).minusMillis(1));
            assertThat(q.poll())
                    .as("a message of the batch handed out 1 ms before it was due")
                    .isNull();
            time().advance(Duration.ofMillis(1));
        }
        List<Delivery<String>> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Delivery<String> d = next(q);
            assertThat(time().now())
                    .as("%s handed out before it was due", d.payload())
                    .isAfterOrEqualTo(due);
            assertThat(d.ack()).isTrue();
            got.add(d);
        }
        return got;
    }

    /** Checks that {@code got} is the batch, each message once with its own id, in order if promised. */
    private void assertTheBatch(
            DelayQueue<String> q, List<Delivery<String>> got, List<String> payloads, List<MessageId> ids)
            throws Exception {
        Map<MessageId, String> sent = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            sent.put(ids.get(i), payloads.get(i));
        }
        Map<MessageId, String> delivered = new HashMap<>();
        got.forEach(d -> delivered.put(d.id(), d.payload()));
        assertThat(delivered)
                .as("each message once, under the id returned for it")
                .isEqualTo(sent);
        assertNothingDelivered(q);
        assertThat(q.stats().total()).isZero();
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        assertThat(got)
                .extracting(Delivery::id)
                .as("delivered in the collection's order")
                .containsExactlyElementsOf(ids);
    }

    @Test
    default void scheduleAll_deliversNoneBeforeTheDelay_thenEachOnce_inCollectionOrder() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        List<String> payloads = List.of("a", "b", "c", "d", "e");
        Instant start = time().now();

        List<MessageId> ids = q.scheduleAll(payloads, delay());

        assertThat(ids).hasSize(5).doesNotHaveDuplicates();
        assertThat(q.poll()).isNull();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 5, 0));
        assertThat(reported(q).sent).as("reported as sent").hasValue(5);
        assertTheBatch(q, takeNoneBefore(q, 5, start.plus(delay())), payloads, ids);
    }

    @Test
    default void scheduleAllAt_deliversNoneBeforeItsInstant_thenEachOnce_inCollectionOrder() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        List<String> payloads = List.of("a", "b", "c");
        Instant due = time().now().plus(delay());

        List<MessageId> ids = q.scheduleAllAt(payloads, due);

        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        assertThat(q.poll()).isNull();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 3, 0));
        assertTheBatch(q, takeNoneBefore(q, 3, due), payloads, ids);
    }

    @Test
    default void scheduleAllAt_aPastInstant_meansNow() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        List<MessageId> ids = q.scheduleAllAt(List.of("x", "y"), time().now().minus(Duration.ofHours(1)));

        List<Delivery<String>> got = List.of(next(q), next(q));
        got.forEach(Delivery::ack);

        assertTheBatch(q, got, List.of("x", "y"), ids);
    }

    @Test
    default void aBatch_takesItsPlaceAmongOtherMessagesByDueTime_keepingItsOwnOrder() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Duration unit = delay().dividedBy(10);
        Instant base = time().now();
        q.scheduleAt("last", base.plus(unit.multipliedBy(3)));
        q.scheduleAllAt(List.of("middle-1", "middle-2", "middle-3"), base.plus(unit.multipliedBy(2)));
        q.scheduleAt("first", base.plus(unit));

        advancePast(unit.multipliedBy(3));

        assertHandedOutByDueTime(q, "first", "middle-1", "middle-2", "middle-3", "last");
    }

    @Test
    default void scheduleAll_withANullElement_throwsNullPointerException_andStoresNothing() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant now = time().now();

        assertThatThrownBy(() -> q.scheduleAll(Arrays.asList("a", null, "c"), Duration.ZERO))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(Arrays.asList("a", "b", null), now))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAll(null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(null, now)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAll(List.of("a"), null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(List.of("a"), null)).isInstanceOf(NullPointerException.class);

        assertThat(q.stats().total()).isZero();
        assertNothingDelivered(q);
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleAll_refusesWhatScheduleRefuses_evenForAnEmptyBatch_storingNothing() {
        DelayQueue<String> q = newDelayQueue();
        Duration tooLong = DelayQueue.MAX_DELAY.plusDays(1);
        Instant tooFar = time().now().plus(tooLong);

        for (List<String> batch : List.of(List.of("a", "b"), List.<String>of())) {
            assertThatThrownBy(() -> q.scheduleAll(batch, Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleAll(batch, tooLong)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleAllAt(batch, tooFar)).isInstanceOf(IllegalArgumentException.class);
        }

        assertThat(q.stats().total()).isZero();
        assertThat(q.scheduleAll(List.of("far"), DelayQueue.MAX_DELAY.minusMinutes(1)))
                .hasSize(1);
    }

    @Test
    default void scheduleAll_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing() {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        DelayQueue<String> q = (DelayQueue<String>) newQueue(config().withCodec(PICKY));

        assertThatThrownBy(() -> q.scheduleAll(List.of("fine", "unencodable"), Duration.ZERO))
                .isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(List.of("fine", "unencodable"), time().now()))
                .isInstanceOf(SerializationException.class);

        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void scheduleAll_ofAnEmptyBatch_returnsNoIds_andStoresNothing() throws Exception {
        DelayQueue<String> q = newDelayQueue();

        assertThat(q.scheduleAll(List.of(), delay())).isEmpty();
        assertThat(q.scheduleAllAt(List.of(), time().now())).isEmpty();

        assertThat(q.stats().total()).isZero();
        assertNothingDelivered(q);
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleAll_afterClose_throwsQueueClosedException_evenForAnEmptyBatch() {
        DelayQueue<String> q = newDelayQueue();
        q.close();

        assertThatThrownBy(() -> q.scheduleAll(List.of("x"), Duration.ZERO)).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(List.of("x"), time().now())).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> q.scheduleAll(List.of(), Duration.ZERO)).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> q.scheduleAllAt(List.of(), time().now())).isInstanceOf(QueueClosedException.class);
    }
}
