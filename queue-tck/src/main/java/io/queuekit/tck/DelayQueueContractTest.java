package io.queuekit.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Codec;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import io.queuekit.tck.Tck.Call;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link DelayQueue}: every test of {@link MessageQueueContractTest} (a delay
 * queue is a complete message queue) plus scheduling, due-time order, cancelling and idempotent
 * ids. A transport implements {@link #createQueue} returning its delay queue, and {@link #time()}.
 *
 * <p>On real time the scheduling tests wait out delays of about {@link #visibilityTimeout()}
 * (1 s by default) or a tenth of it; the ordering test schedules at absolute instants from
 * {@link TimeControl#now()}, so the transport's clock must agree with it.
 */
public abstract class DelayQueueContractTest extends MessageQueueContractTest {

    /**
     * A new delay queue named {@code name} (unique to one test) with exactly the settings in
     * {@code config}, holding strings. The suite closes it after the test.
     */
    @Override
    protected abstract DelayQueue<String> createQueue(String name, QueueConfig config);

    DelayQueue<String> newDelayQueue() {
        return (DelayQueue<String>) newQueue();
    }

    /** The delay most scheduling tests use: the visibility timeout (1 s on real time). */
    Duration delay() {
        return visibilityTimeout();
    }

    @Nested
    @DisplayName("schedule delays a message until it is due, and never delivers it early")
    class Scheduling {

        @Test
        void schedule_isNotDeliveredBeforeItsDelay_thenIsDelivered() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            Instant start = time().now();
            MessageId id = q.schedule("later", delay());

            assertThat(q.poll()).isNull();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));

            Delivery<String> d = assertNotBefore(delay(), start, q);
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("later");
            assertThat(d.attempt()).isEqualTo(1);
            assertThat(d.ack()).isTrue();
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void scheduleAt_isNotDeliveredBeforeItsInstant() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            Instant due = time().now().plus(delay());
            q.scheduleAt("at", due);

            if (time().isVirtual()) {
                time().advance(delay().minusMillis(1));
                assertThat(q.poll()).as("handed out 1 ms before its instant").isNull();
                time().advance(Duration.ofMillis(1));
                assertThat(next(q).payload()).isEqualTo("at");
            } else {
                assertThat(next(q).payload()).isEqualTo("at");
                assertThat(time().now()).as("handed out before its instant").isAfterOrEqualTo(due);
            }
        }

        @Test
        void schedule_withZeroDelay_isReadyAtOnce() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            q.schedule("now", Duration.ZERO);
            assertThat(next(q).payload()).isEqualTo("now");
        }

        @Test
        void scheduleAt_aPastInstant_meansNow() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.scheduleAt("overdue", time().now().minus(Duration.ofHours(1)));

            Delivery<String> d = next(q);

            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("overdue");
        }

        @Test
        void dueMessages_areDeliveredByDueTime_thoseDueTogetherInSendOrder() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            Duration unit = delay().dividedBy(10);
            Instant base = time().now();
            q.scheduleAt("third", base.plus(unit.multipliedBy(3)));
            q.scheduleAt("first", base.plus(unit));
            q.scheduleAt("second", base.plus(unit.multipliedBy(2)));
            q.scheduleAt("first-too", base.plus(unit));

            advancePast(unit.multipliedBy(3));

            List<String> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Delivery<String> d = next(q);
                got.add(d.payload());
                d.ack();
            }
            assertThat(got).containsExactlyInAnyOrder("first", "first-too", "second", "third");
            assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
            assertThat(got).containsExactly("first", "first-too", "second", "third");
        }

        @Test
        void take_wakesWhenADelayedMessageBecomesDue() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            q.schedule("due soon", delay());
            Call<Delivery<String>> take = calls.start("take", q::take);
            Tck.awaitParked(take.thread, quietPeriod());
            assertThat(take.isDone()).as("take() returned before the message was due").isFalse();

            advancePast(delay());

            assertThat(take.get().payload()).isEqualTo("due soon");
        }

        @Test
        void everyWaiter_reachesAMessageScheduledWhileItWaits() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            // the short poll waits longest, so a wake-up for one waiter goes to it, not to take()
            Call<Delivery<String>> shortPoll = calls.start("poll", () -> q.poll(quietPeriod().toMillis(), MILLISECONDS));
            Tck.awaitParked(shortPoll.thread, quietPeriod());
            Call<Delivery<String>> take = calls.start("take", q::take);
            Tck.awaitParked(take.thread, quietPeriod());

            q.schedule("due", delay());
            advancePast(delay());

            Delivery<String> polled = shortPoll.get();
            Delivery<String> got = polled != null ? polled : take.get();
            assertThat(got.payload()).isEqualTo("due");
        }

        @Test
        void schedule_returnsADistinctIdForEveryMessage() {
            DelayQueue<String> q = newDelayQueue();
            Set<MessageId> ids = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                ids.add(q.schedule("same", delay()));
                ids.add(q.scheduleAt("same", time().now().plus(delay())));
            }
            assertThat(ids).hasSize(40);
            assertThat(q.stats().delayed()).isEqualTo(40);
        }

        @Test
        void schedule_refusesNegativeDelays_andDelaysBeyondTheMaximum_storingNothing() {
            DelayQueue<String> q = newDelayQueue();
            Duration tooLong = DelayQueue.MAX_DELAY.plusDays(1);
            Instant tooFar = time().now().plus(tooLong);

            assertThatThrownBy(() -> q.schedule("x", Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.schedule("x", tooLong)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleAt("x", tooFar)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.schedule(MessageId.of("a"), "x", Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.scheduleAt(MessageId.of("b"), "x", tooFar))
                    .isInstanceOf(IllegalArgumentException.class);

            assertThat(q.stats().total()).isZero();
            assertThat(q.schedule(MessageId.of("a"), "x", Duration.ZERO)).as("id a was not taken").isTrue();
        }

        @Test
        void schedule_atTheMaximumDelay_isAccepted() {
            DelayQueue<String> q = newDelayQueue();
            q.schedule("far", DelayQueue.MAX_DELAY.minusMinutes(1));
            assertThat(q.stats().delayed()).isEqualTo(1);
        }

        @Test
        void schedule_refusesNulls_storingNothing() {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("n");
            Instant at = time().now();

            assertThatThrownBy(() -> q.schedule(null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.schedule("x", null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.scheduleAt(null, at)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.scheduleAt("x", null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.schedule(null, "x", Duration.ZERO)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.schedule(id, null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.scheduleAt(id, "x", null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.cancel(null)).isInstanceOf(NullPointerException.class);

            assertThat(q.stats().total()).isZero();
        }

        @Test
        void semantics_promiseDelays() {
            assertThat(newDelayQueue().semantics().delays()).isTrue();
        }

        // ---- one MAX_DELAY rule on every transport, for delays and due times alike

        @Test
        void schedule_beyondTheMaximum_isRefusedNamingTheLimit_andADueTimeWithinItIsAccepted() {
            DelayQueue<String> q = newDelayQueue();
            Duration tooLong = DelayQueue.MAX_DELAY.plusMillis(1);

            assertThatThrownBy(() -> q.schedule("x", tooLong)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("DelayQueue.MAX_DELAY").hasMessageContaining(tooLong.toString());
            assertThatThrownBy(() -> q.scheduleAt("x", Instant.MAX)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("DelayQueue.MAX_DELAY").hasMessageContaining(Instant.MAX.toString());
            assertThat(q.stats().total()).isZero();

            q.scheduleAt("far", time().now().plus(DelayQueue.MAX_DELAY).minusSeconds(60));
            assertThat(q.stats().delayed()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("scheduleAll and scheduleAllAt store a batch that falls due together, all or nothing")
    class Batches {

        /** Hands out {@code n} messages, none before {@code due} on the transport's clock; acks each. */
        List<Delivery<String>> takeNoneBefore(DelayQueue<String> q, int n, Instant due) throws Exception {
            if (time().isVirtual()) {
                time().advance(Duration.between(time().now(), due).minusMillis(1));
                assertThat(q.poll()).as("a message of the batch handed out 1 ms before it was due").isNull();
                time().advance(Duration.ofMillis(1));
            }
            List<Delivery<String>> got = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Delivery<String> d = next(q);
                assertThat(time().now()).as("%s handed out before it was due", d.payload()).isAfterOrEqualTo(due);
                assertThat(d.ack()).isTrue();
                got.add(d);
            }
            return got;
        }

        /** Checks that {@code got} is the batch, each message once with its own id, in order if promised. */
        void assertTheBatch(DelayQueue<String> q, List<Delivery<String>> got, List<String> payloads,
                List<MessageId> ids) throws Exception {
            Map<MessageId, String> sent = new HashMap<>();
            for (int i = 0; i < ids.size(); i++) {
                sent.put(ids.get(i), payloads.get(i));
            }
            Map<MessageId, String> delivered = new HashMap<>();
            got.forEach(d -> delivered.put(d.id(), d.payload()));
            assertThat(delivered).as("each message once, under the id returned for it").isEqualTo(sent);
            assertNothingDelivered(q);
            assertThat(q.stats().total()).isZero();
            assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
            assertThat(got).extracting(Delivery::id).as("delivered in the collection's order").containsExactlyElementsOf(ids);
        }

        @Test
        void scheduleAll_deliversNoneBeforeTheDelay_thenEachOnce_inCollectionOrder() throws Exception {
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
        void scheduleAllAt_deliversNoneBeforeItsInstant_thenEachOnce_inCollectionOrder() throws Exception {
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
        void scheduleAllAt_aPastInstant_meansNow() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            List<MessageId> ids = q.scheduleAllAt(List.of("x", "y"), time().now().minus(Duration.ofHours(1)));

            List<Delivery<String>> got = List.of(next(q), next(q));
            got.forEach(Delivery::ack);

            assertTheBatch(q, got, List.of("x", "y"), ids);
        }

        @Test
        void aBatch_takesItsPlaceAmongOtherMessagesByDueTime_keepingItsOwnOrder() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            Duration unit = delay().dividedBy(10);
            Instant base = time().now();
            q.scheduleAt("last", base.plus(unit.multipliedBy(3)));
            q.scheduleAllAt(List.of("middle-1", "middle-2", "middle-3"), base.plus(unit.multipliedBy(2)));
            q.scheduleAt("first", base.plus(unit));

            advancePast(unit.multipliedBy(3));

            List<String> got = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Delivery<String> d = next(q);
                got.add(d.payload());
                d.ack();
            }
            assertThat(got).containsExactlyInAnyOrder("first", "middle-1", "middle-2", "middle-3", "last");
            assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
            assertThat(got).containsExactly("first", "middle-1", "middle-2", "middle-3", "last");
        }

        @Test
        void scheduleAll_withANullElement_throwsNullPointerException_andStoresNothing() throws Exception {
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
        void scheduleAll_refusesWhatScheduleRefuses_evenForAnEmptyBatch_storingNothing() {
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
            assertThat(q.scheduleAll(List.of("far"), DelayQueue.MAX_DELAY.minusMinutes(1))).hasSize(1);
        }

        @Test
        void scheduleAll_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing() {
            assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
            DelayQueue<String> q = (DelayQueue<String>) newQueue(config().withCodec(REFUSES_UNENCODABLE));

            assertThatThrownBy(() -> q.scheduleAll(List.of("fine", "unencodable"), Duration.ZERO))
                    .isInstanceOf(SerializationException.class);
            assertThatThrownBy(() -> q.scheduleAllAt(List.of("fine", "unencodable"), time().now()))
                    .isInstanceOf(SerializationException.class);

            assertThat(q.stats().total()).isZero();
        }

        @Test
        void scheduleAll_ofAnEmptyBatch_returnsNoIds_andStoresNothing() throws Exception {
            DelayQueue<String> q = newDelayQueue();

            assertThat(q.scheduleAll(List.of(), delay())).isEmpty();
            assertThat(q.scheduleAllAt(List.of(), time().now())).isEmpty();

            assertThat(q.stats().total()).isZero();
            assertNothingDelivered(q);
            assertThat(reported(q).sent).as("reported as sent").hasValue(0);
        }

        @Test
        void scheduleAll_afterClose_throwsQueueClosedException_evenForAnEmptyBatch() {
            DelayQueue<String> q = newDelayQueue();
            q.close();

            assertThatThrownBy(() -> q.scheduleAll(List.of("x"), Duration.ZERO)).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> q.scheduleAllAt(List.of("x"), time().now()))
                    .isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> q.scheduleAll(List.of(), Duration.ZERO)).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> q.scheduleAllAt(List.of(), time().now())).isInstanceOf(QueueClosedException.class);
        }
    }

    /** UTF-8, except that it cannot encode a payload that begins with "unencodable". */
    private static final Codec<String> REFUSES_UNENCODABLE = new Codec<>() {
        @Override
        public byte[] encode(String payload) {
            if (payload.startsWith("unencodable")) {
                throw new IllegalStateException("this codec cannot encode " + payload);
            }
            return Codec.utf8().encode(payload);
        }

        @Override
        public String decode(byte[] bytes) {
            return Codec.utf8().decode(bytes);
        }

        @Override
        public String toString() {
            return "the contract's codec that refuses unencodable payloads";
        }
    };

    @Nested
    @DisplayName("cancel removes a message that has not been handed out")
    class Cancelling {

        @Test
        void cancel_beforeDelivery_returnsTrue_andTheMessageIsNeverDelivered() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.schedule("cancelled", delay());

            assertThat(q.cancel(id)).isTrue();

            assertThat(q.stats().total()).isZero();
            advancePast(delay());
            assertNothingDelivered(q);
            assertThat(q.cancel(id)).as("second cancel").isFalse();
        }

        @Test
        void cancel_ofADueMessageNotYetTaken_returnsTrue() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.schedule("due", Duration.ZERO);
            MessageId sent = q.send("sent");

            assertThat(q.cancel(id)).isTrue();
            assertThat(q.cancel(sent)).isTrue();

            assertThat(q.poll()).isNull();
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void cancel_ofAMessageWhoseLeaseExpired_returnsTrue_andTheMessageIsNeverDeliveredAgain() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.schedule("abandoned", Duration.ZERO);
            Delivery<String> stale = next(q);

            advancePastLease();

            assertThat(q.cancel(id)).as("waiting again once its lease expired").isTrue();
            assertThat(q.stats().total()).isZero();
            assertThat(stale.ack()).isFalse();
            assertNothingDelivered(q);
        }

        @Test
        void cancel_afterDelivery_returnsFalse() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.schedule("taken", Duration.ZERO);
            Delivery<String> d = next(q);

            assertThat(q.cancel(id)).as("in flight").isFalse();
            assertThat(d.ack()).as("the delivery is unaffected").isTrue();
            assertThat(q.cancel(id)).as("acked").isFalse();
        }

        @Test
        void cancel_ofADeadLetter_returnsFalse() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.send("dead");
            next(q).deadLetter("no");

            assertThat(q.cancel(id)).isFalse();
            assertThat(q.deadLetters().size()).isEqualTo(1);
        }

        @Test
        void cancel_unknownId_returnsFalse() {
            DelayQueue<String> q = newDelayQueue();
            assertThat(q.cancel(MessageId.of("never-stored"))).isFalse();
        }
    }

    @Nested
    @DisplayName("ids a caller chooses never meet the ids the queue generates")
    class ChosenAndGeneratedIds {

        @Test
        void callerIds_andGeneratedIds_areIndependent() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            List<MessageId> generated = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                generated.add(q.send("generated-" + i));
            }
            Set<MessageId> chosen = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                chosen.add(MessageId.of(Integer.toString(i)));
                chosen.add(MessageId.of(Integer.toString(i, 36)));
            }
            generated.forEach(g -> chosen.add(MessageId.of(g.value().substring(1)))); // the text after the mark

            for (MessageId c : chosen) {
                assertThat(q.schedule(c, "chosen-" + c, delay())).as("schedule %s", c).isTrue();
            }
            for (MessageId c : chosen) {
                assertThat(q.cancel(c)).as("cancel %s", c).isTrue();
            }

            assertThat(q.stats()).isEqualTo(new QueueStats(40, 0, 0, 0));
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Delivery<String> d = next(q);
                assertThat(generated).contains(d.id());
                got.add(d.payload());
                d.ack();
            }
            assertThat(got).allMatch(p -> p.startsWith("generated-"));
        }

        @Test
        void schedule_refusesAnIdWithTheGeneratedMark_storingNothing() {
            DelayQueue<String> q = newDelayQueue();
            MessageId generated = q.send("x");
            MessageId copied = MessageId.of(generated.value());
            MessageId marked = MessageId.of(MessageId.GENERATED_MARK + "mine");

            assertThatThrownBy(() -> q.schedule(copied, "y", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(copied.value());
            assertThatThrownBy(() -> q.scheduleAt(marked, "y", time().now())).isInstanceOf(IllegalArgumentException.class);

            assertThat(q.stats().total()).isEqualTo(1);
        }

        @Test
        void cancel_ofAGeneratedIdReadBackFromText_removesItsMessage() {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = q.schedule("x", delay());

            assertThat(q.cancel(MessageId.of(id.value()))).isTrue();
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void staleDelivery_cannotSettleANewerMessage_scheduledUnderTheSameId() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("order-17");
            q.schedule(id, "first", Duration.ZERO);
            Delivery<String> stale = next(q);
            advancePastLease();
            Delivery<String> second = next(q);
            assertThat(second.ack()).isTrue();
            assertThat(q.schedule(id, "second", Duration.ZERO)).as("the id is free once acked").isTrue();

            Delivery<String> fresh = next(q);

            assertThat(fresh.payload()).isEqualTo("second");
            assertThat(fresh.attempt()).isEqualTo(stale.attempt());
            assertThat(stale.ack()).as("stale ack").isFalse();
            assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();
            assertThat(stale.deadLetter("stale")).as("stale dead letter").isFalse();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
            assertThat(fresh.ack()).isTrue();
        }
    }

    @Nested
    @DisplayName("a caller-chosen id stores at most one message")
    class IdempotentIds {

        @Test
        void schedule_withAnExistingId_isIgnored_andTheFirstPayloadStands() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("order-42-reminder");

            assertThat(q.schedule(id, "first", delay())).isTrue();
            assertThat(q.schedule(id, "second", Duration.ZERO)).isFalse();
            assertThat(q.scheduleAt(id, "third", time().now())).isFalse();

            assertThat(q.poll()).as("the second schedule's earlier due time was ignored").isNull();
            assertThat(q.stats().delayed()).isEqualTo(1);
            advancePast(delay());
            Delivery<String> d = next(q);
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("first");
            assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
        }

        @Test
        void schedule_withTheIdOfAnInFlightMessage_isIgnored_untilItIsAcked() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("job-7");
            q.schedule(id, "first", Duration.ZERO);
            Delivery<String> d = next(q);

            assertThat(q.schedule(id, "again", Duration.ZERO)).isFalse();
            assertThat(q.poll()).isNull();

            d.ack();
            assertThat(q.schedule(id, "again", Duration.ZERO)).as("the id is free once acked").isTrue();
            assertThat(next(q).payload()).isEqualTo("again");
        }

        @Test
        void schedule_withTheIdOfADeadLetter_isIgnored_untilPurged() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("job-8");
            q.schedule(id, "first", Duration.ZERO);
            next(q).deadLetter("no");

            assertThat(q.schedule(id, "again", Duration.ZERO)).isFalse();
            assertThat(q.deadLetters().list(1).get(0).payload()).isEqualTo("first");

            q.deadLetters().purge();
            assertThat(q.schedule(id, "again", Duration.ZERO)).as("the id is free once purged").isTrue();
        }

        @Test
        void schedule_withTheIdOfACancelledMessage_storesAgain() throws Exception {
            DelayQueue<String> q = newDelayQueue();
            MessageId id = MessageId.of("job-9");
            q.schedule(id, "first", delay());
            q.cancel(id);

            assertThat(q.schedule(id, "second", Duration.ZERO)).isTrue();
            assertThat(next(q).payload()).isEqualTo("second");
        }
    }
}
