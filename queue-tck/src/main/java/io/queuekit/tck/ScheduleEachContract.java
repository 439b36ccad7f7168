package io.queuekit.tck;

import static io.queuekit.tck.Tck.PICKY;
import static io.queuekit.tck.Tck.assertHandedOutByDueTime;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.DelayQueue#scheduleEach}: each message of a batch falls due at
 * its own time, never early, once under its own id; by due time, and those due together in the
 * collection's order, when due time orders the queue; a past instant means now; a batch is checked
 * in full before any of it is stored.
 */
interface ScheduleEachContract extends DelayQueueContract {

    private static List<Scheduled<String>> batch(Map<String, Instant> due) {
        List<Scheduled<String>> batch = new ArrayList<>();
        due.forEach((payload, at) -> batch.add(Scheduled.at(payload, at)));
        return batch;
    }

    /**
     * Hands out the messages due at {@code at}, none before it on the transport's clock, each not
     * before its own due time in {@code due}; acks each.
     */
    private List<Delivery<String>> takeThoseDueAt(DelayQueue<String> q, Instant at, Map<String, Instant> due)
            throws Exception {
        if (time().isVirtual()) {
            time().advance(Duration.between(time().now(), at).minusMillis(1));
            assertThat(q.poll()).as("a message handed out 1 ms before %s", at).isNull();
            time().advance(Duration.ofMillis(1));
        }
        long n = due.values().stream().filter(at::equals).count();
        List<Delivery<String>> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Delivery<String> d = next(q);
            assertThat(time().now())
                    .as("%s handed out before it was due at %s", d.payload(), due.get(d.payload()))
                    .isAfterOrEqualTo(due.get(d.payload()));
            assertThat(d.ack()).isTrue();
            got.add(d);
        }
        return got;
    }

    @Test
    default void scheduleEach_handsOutEachMessageAtItsOwnDueTime_neverBefore_byDueTimeThenCollectionOrder()
            throws Exception {
        DelayQueue<String> q = newDelayQueue();
        // on real time, half the delay between due times, so that a busy host's pause before the
        // first poll below does not reach the first due time
        Duration unit = time().isVirtual() ? delay().dividedBy(10) : delay().dividedBy(2);
        Instant base = time().now();
        Map<String, Instant> due = new LinkedHashMap<>(); // the collection's order
        due.put("third", base.plus(unit.multipliedBy(3)));
        due.put("first", base.plus(unit));
        due.put("second", base.plus(unit.multipliedBy(2)));
        due.put("first-too", base.plus(unit));
        List<String> payloads = List.copyOf(due.keySet());

        List<MessageId> ids = q.scheduleEach(batch(due));

        assertThat(ids).hasSize(4).doesNotHaveDuplicates();
        assertThat(q.poll()).isNull();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 4, 0));
        assertThat(reported(q).sent).as("reported as sent").hasValue(4);
        List<Delivery<String>> got = new ArrayList<>();
        for (Instant at : new TreeSet<>(due.values())) {
            got.addAll(takeThoseDueAt(q, at, due));
        }
        Map<MessageId, String> sent = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            sent.put(ids.get(i), payloads.get(i));
        }
        Map<MessageId, String> delivered = new HashMap<>();
        got.forEach(d -> delivered.put(d.id(), d.payload()));
        assertThat(delivered)
                .as("each message once, under the id returned for it, in the collection's order")
                .isEqualTo(sent);
        assertNothingDelivered(q);
        assertThat(q.stats().total()).isZero();
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        assertThat(got)
                .extracting(Delivery::payload)
                .as("by due time, then in the collection's order")
                .containsExactly("first", "first-too", "second", "third");
    }

    @Test
    default void scheduleEach_messagesTakeTheirPlaceAmongOtherMessagesByDueTime() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Duration unit = delay().dividedBy(10);
        Instant base = time().now();
        q.scheduleAt("second", base.plus(unit.multipliedBy(2)));
        q.scheduleEach(List.of(
                Scheduled.at("third", base.plus(unit.multipliedBy(3))),
                Scheduled.at("second-too", base.plus(unit.multipliedBy(2))), // behind the one sent before
                Scheduled.at("first", base.plus(unit))));
        q.scheduleAt("first-too", base.plus(unit)); // sent after the batch: behind its "first"

        advancePast(unit.multipliedBy(3));

        assertHandedOutByDueTime(q, "first", "first-too", "second", "second-too", "third");
    }

    @Test
    default void scheduleEach_ofOnePastInstant_meansNow_behindWhatIsAlreadyDue() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        q.send("due-already");
        q.scheduleEach(List.of(Scheduled.at("overdue", time().now().minus(Duration.ofHours(1)))));

        assertThat(List.of(next(q).payload(), next(q).payload())).containsExactly("due-already", "overdue");
    }

    @Test
    default void scheduleEach_pastInstantsMeanNow_andKeepTheCollectionsOrder() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant now = time().now();

        List<MessageId> ids = q.scheduleEach(List.of(
                Scheduled.at("an-hour-ago", now.minus(Duration.ofHours(1))),
                Scheduled.at("later", now.plus(delay())),
                Scheduled.at("min", Instant.MIN),
                Scheduled.at("a-second-ago", now.minusSeconds(1))));

        assertThat(q.stats()).isEqualTo(new QueueStats(3, 0, 1, 0));
        List<Delivery<String>> got = List.of(next(q), next(q), next(q));
        got.forEach(Delivery::ack);
        assertThat(q.poll()).as("the message due later, handed out now").isNull();
        assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrder(ids.get(0), ids.get(2), ids.get(3));
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        assertThat(got)
                .extracting(Delivery::payload)
                .as("all due now, so in the collection's order")
                .containsExactly("an-hour-ago", "min", "a-second-ago");
    }

    @Test
    default void scheduleEach_withANullElement_throwsNullPointerException_andStoresNothing() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant now = time().now();

        assertThatThrownBy(() -> q.scheduleEach(Arrays.asList(Scheduled.at("a", now), null, Scheduled.at("c", now))))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleEach(null)).isInstanceOf(NullPointerException.class);

        assertThat(q.stats().total()).isZero();
        assertNothingDelivered(q);
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleEach_withADueTimeBeyondTheMaximum_throwsIllegalArgumentException_andStoresNothing()
            throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant now = time().now();
        Instant tooFar = now.plus(DelayQueue.MAX_DELAY.plusDays(1));

        assertThatThrownBy(() -> q.scheduleEach(List.of(
                        Scheduled.at("now", now),
                        Scheduled.at("later", now.plus(delay())),
                        Scheduled.at("too far", tooFar))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DelayQueue.MAX_DELAY");
        assertThatThrownBy(() -> q.scheduleEach(List.of(Scheduled.at("now", now), Scheduled.at("max", Instant.MAX))))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(q.stats().total()).isZero();
        assertNothingDelivered(q);
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
        Instant far = time().now().plus(DelayQueue.MAX_DELAY).minusSeconds(60);
        assertThat(q.scheduleEach(List.of(Scheduled.at("far", far)))).hasSize(1);
        assertThat(q.stats().delayed()).isEqualTo(1);
    }

    @Test
    default void scheduleEach_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing() {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        DelayQueue<String> q = (DelayQueue<String>) newQueue(config().withCodec(PICKY));
        Instant now = time().now();

        assertThatThrownBy(() -> q.scheduleEach(
                        List.of(Scheduled.at("fine", now), Scheduled.at("unencodable", now.plus(delay())))))
                .isInstanceOf(SerializationException.class);

        assertThat(q.stats().total()).isZero();
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleEach_ofAPayloadAboveTheSizeLimit_throwsIllegalArgumentException_andStoresNothing() {
        assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
        DelayQueue<String> q = newDelayQueue();
        Instant now = time().now();
        String overLimit = "x".repeat((1 << 20) + 1);

        assertThatThrownBy(() -> q.scheduleEach(List.of(Scheduled.at("fine", now), Scheduled.at(overLimit, now))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxPayloadBytes");

        assertThat(q.stats().total()).isZero();
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleEach_ofAnEmptyBatch_returnsNoIds_andStoresNothing() throws Exception {
        DelayQueue<String> q = newDelayQueue();

        assertThat(q.scheduleEach(List.of())).isEmpty();

        assertThat(q.stats().total()).isZero();
        assertNothingDelivered(q);
        assertThat(reported(q).sent).as("reported as sent").hasValue(0);
    }

    @Test
    default void scheduleEach_afterClose_throwsQueueClosedException_evenForAnEmptyBatch() {
        DelayQueue<String> q = newDelayQueue();
        q.close();

        assertThatThrownBy(() -> q.scheduleEach(List.of(Scheduled.at("x", time().now()))))
                .isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> q.scheduleEach(List.of())).isInstanceOf(QueueClosedException.class);
    }
}
