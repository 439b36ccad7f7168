package io.queuekit.tck;

import static io.queuekit.tck.Tck.assertHandedOutByDueTime;
import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.DelayQueue#schedule} and {@code scheduleAt}: a message is
 * never handed out before it is due, then is, by due time; waiters wake for it.
 *
 * <p>On real time these tests wait out delays of about {@link #delay()} (1 s by default) or a tenth
 * of it; the ordering test schedules at absolute instants from {@link TimeControl#now()}, so the
 * transport's clock must agree with it.
 */
interface SchedulingContract extends DelayQueueContract {

    @Test
    default void semantics_promiseDelays() {
        MessageQueue<String> q = newQueue();
        assumeTrue(q instanceof DelayQueue, "not a delay queue: " + q);
        assertThat(q.semantics().delays()).isTrue();
    }

    @Test
    default void schedule_isNotDeliveredBeforeItsDelay_thenIsDelivered() throws Exception {
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
    default void scheduleAt_isNotDeliveredBeforeItsInstant() throws Exception {
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
    default void schedule_withZeroDelay_isReadyAtOnce() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        q.schedule("now", Duration.ZERO);
        assertThat(next(q).payload()).isEqualTo("now");
    }

    @Test
    default void scheduleAt_aPastInstant_meansNow() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.scheduleAt("overdue", time().now().minus(Duration.ofHours(1)));

        Delivery<String> d = next(q);

        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("overdue");
    }

    @Test
    default void scheduleAt_aPastInstant_meansNow_behindWhatIsAlreadyDue() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        q.send("due-already");
        q.scheduleAt("overdue", time().now().minus(Duration.ofHours(1)));

        assertThat(List.of(next(q).payload(), next(q).payload())).containsExactly("due-already", "overdue");
    }

    @Test
    default void dueMessages_areDeliveredByDueTime_thoseDueTogetherInSendOrder() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Duration unit = delay().dividedBy(10);
        // a full delay ahead: a host that stalls between the calls must not make an instant past (then: now)
        Instant base = time().now().plus(delay());
        q.scheduleAt("third", base.plus(unit.multipliedBy(3)));
        q.scheduleAt("first", base.plus(unit));
        q.scheduleAt("second", base.plus(unit.multipliedBy(2)));
        q.scheduleAt("first-too", base.plus(unit));

        advancePast(delay().plus(unit.multipliedBy(3)));

        assertHandedOutByDueTime(q, "first", "first-too", "second", "third");
    }

    @Test
    default void take_wakesWhenADelayedMessageBecomesDue() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        q.schedule("due soon", delay());
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());
        assertThat(take.isDone())
                .as("take() returned before the message was due")
                .isFalse();

        advancePast(delay());

        assertThat(take.get().payload()).isEqualTo("due soon");
    }

    @Test
    default void everyWaiter_reachesAMessageScheduledWhileItWaits() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        // the short poll waits longest, so a wake-up for one waiter goes to it, not to take()
        Call<Delivery<String>> shortPoll =
                call("poll", () -> q.poll(quietPeriod().toMillis(), MILLISECONDS));
        Tck.awaitParked(shortPoll.thread(), quietPeriod());
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());

        q.schedule("due", delay());
        advancePast(delay());

        Delivery<String> polled = shortPoll.get();
        Delivery<String> got = polled != null ? polled : take.get();
        assertThat(got.payload()).isEqualTo("due");
    }

    @Test
    default void schedule_returnsADistinctIdForEveryMessage() {
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
    default void schedule_atTheMaximumDelay_isAccepted() {
        DelayQueue<String> q = newDelayQueue();
        q.schedule("far", DelayQueue.MAX_DELAY.minusMinutes(1));
        assertThat(q.stats().delayed()).isEqualTo(1);
    }
}
