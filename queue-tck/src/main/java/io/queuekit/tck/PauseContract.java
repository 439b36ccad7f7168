package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.inSendOrder;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.takeAndAck;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link MessageQueue#pause()} and {@link MessageQueue#resume()}: a paused queue
 * keeps what is sent and hands nothing out, by any form of receive; deliveries already handed out
 * settle as usual; a lease that runs out while paused, or a delayed message that falls due, waits
 * for the resume; after it, everything is handed out in the order it would have been. Tests of
 * leases are skipped on an at-most-once queue, of delays on a queue that has none.
 */
interface PauseContract extends QueueContract {

    @Test
    default void paused_handsOutNothing_keepsWhatIsSent_andHandsItAllOutInOrderAfterResume() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("m0");
        q.send("m1");

        q.pause();

        assertThat(q.isPaused()).isTrue();
        q.send("m2");
        q.sendAll(List.of("m3", "m4"));
        assertThat(q.poll()).as("poll() of a paused queue").isNull();
        assertNothingDelivered(q);
        assertThat(q.pollBatch(5, quietPeriod().toMillis(), MILLISECONDS))
                .as("pollBatch of a paused queue")
                .isEmpty();
        assertThat(q.stats()).isEqualTo(new QueueStats(5, 0, 0, 0, true));

        q.resume();

        assertThat(q.isPaused()).isFalse();
        assertThat(q.stats()).isEqualTo(new QueueStats(5, 0, 0, 0, false));
        List<String> got = takeAndAck(q, 5);
        assertThat(got).containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4");
        if (inSendOrder(q.semantics())) {
            assertThat(got).as("handed out in send order, pause or not").containsExactly("m0", "m1", "m2", "m3", "m4");
        }
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void inFlight_settlesAsUsualWhilePaused() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("acked", "retried", "buried"));
        Delivery<String> acked = next(q);
        Delivery<String> retried = next(q);
        Delivery<String> buried = next(q);

        q.pause();

        assertThat(acked.ack()).as("ack while paused").isTrue();
        assertThat(buried.deadLetter("while paused"))
                .as("dead letter while paused")
                .isTrue();
        assertThat(q.deadLetters().size()).isEqualTo(1);
        assumeLeases(q); // at most once, a retry stores the message anew: sending is covered above
        assertThat(retried.extendLease(visibilityTimeout()))
                .as("lease extension while paused")
                .isTrue();
        assertThat(retried.retry(Duration.ZERO)).as("retry while paused").isTrue();
        assertNothingDelivered(q);
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 1, true));

        q.resume();

        Delivery<String> again = next(q);
        assertThat(again.payload()).isEqualTo("retried");
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.ack()).isTrue();
    }

    @Test
    default void aLeaseThatRunsOutWhilePaused_redeliversOnlyAfterResume() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("abandoned");
        Delivery<String> abandoned = next(q);
        q.pause();

        advancePastLease();

        await().untilAsserted(() -> assertThat(q.stats())
                .as("an expired lease counts as ready")
                .isEqualTo(new QueueStats(1, 0, 0, 0, true)));
        assertNothingDelivered(q);
        assertThat(abandoned.ack()).as("ack after the lease ran out").isFalse();

        q.resume();

        Delivery<String> again = next(q);
        assertThat(again.payload()).isEqualTo("abandoned");
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.ack()).isTrue();
    }

    @Test
    default void delayedMessagesFallingDueWhilePaused_waitForTheResume_thenComeInDueOrder() throws Exception {
        MessageQueue<String> queue = newQueue();
        assumeTrue(queue instanceof DelayQueue<?>, "not a delay queue: " + queue);
        DelayQueue<String> q = (DelayQueue<String>) queue;
        Duration later = visibilityTimeout().dividedBy(5);
        q.pause();
        q.schedule("later", later);
        q.schedule("sooner", later.dividedBy(2));

        advancePast(later);

        await().untilAsserted(() ->
                assertThat(q.stats()).as("both due, both kept").isEqualTo(new QueueStats(2, 0, 0, 0, true)));
        assertNothingDelivered(q);

        q.resume();

        List<String> got = takeAndAck(q, 2);
        assertThat(got).containsExactlyInAnyOrder("sooner", "later");
        if (q.semantics().ordering() == Semantics.Ordering.DUE_TIME) {
            assertThat(got).containsExactly("sooner", "later");
        }
    }

    @Test
    default void take_waitingWhilePaused_getsTheMessageAfterResume() throws Exception {
        MessageQueue<String> q = newQueue();
        q.pause();
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());

        q.send("x");
        assertNothingDelivered(q);
        assertThat(take.isDone()).as("take() returned while paused").isFalse();

        q.resume();

        Delivery<String> d = take.get();
        assertThat(d.payload()).isEqualTo("x");
        assertThat(d.ack()).isTrue();
    }

    @Test
    default void consume_waitsWhilePaused_andHandlesEverythingAfterResume_inOrder() throws Exception {
        MessageQueue<String> q = newQueue();
        List<String> handled = new CopyOnWriteArrayList<>();
        q.pause();
        closeLater(q.consume(d -> handled.add(d.payload()), quickOptions(1, Duration.ZERO)));

        q.sendAll(List.of("m0", "m1", "m2"));
        assertNothingDelivered(q);
        assertThat(handled).as("handled while paused").isEmpty();

        q.resume();

        await().untilAsserted(() -> assertThat(handled).containsExactlyInAnyOrder("m0", "m1", "m2"));
        if (inSendOrder(q.semantics())) {
            assertThat(handled).containsExactly("m0", "m1", "m2");
        }
        await().untilAsserted(() -> assertThat(q.stats().total()).isZero());
    }

    @Test
    default void pauseAndResume_areIdempotent() throws Exception {
        MessageQueue<String> q = newQueue();
        assertThat(q.isPaused()).as("a new queue").isFalse();
        q.resume();
        assertThat(q.isPaused()).as("resumed, never paused").isFalse();

        q.pause();
        q.pause();
        assertThat(q.isPaused()).isTrue();
        q.send("x");
        assertThat(q.poll()).isNull();

        q.resume();
        q.resume();
        assertThat(q.isPaused()).isFalse();
        Delivery<String> d = q.poll(GENEROUS_MS, MILLISECONDS);
        assertThat(d).isNotNull();
        assertThat(d.payload()).isEqualTo("x");
    }

    @Test
    default void pauseResumeAndIsPaused_afterClose_throwQueueClosedException() {
        MessageQueue<String> q = newQueue();
        q.close();

        assertThatThrownBy(q::pause).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(q::resume).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(q::isPaused).isInstanceOf(QueueClosedException.class);
    }

    @Test
    default void close_wakesATakeWaitingWhilePaused() throws Exception {
        MessageQueue<String> q = newQueue();
        q.pause();
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());

        q.close();

        assertThat(take.failure()).isInstanceOf(QueueClosedException.class);
    }
}
