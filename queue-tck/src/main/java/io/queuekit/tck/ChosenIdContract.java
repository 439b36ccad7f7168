package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of ids a caller chooses ({@code schedule(MessageId, ...)}): such an id stores at
 * most one message at a time, and never meets an id the queue generates.
 */
interface ChosenIdContract extends DelayQueueContract {

    @Test
    default void callerIds_andGeneratedIds_areIndependent() throws Exception {
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
            assertThat(q.schedule(c, "chosen-" + c, delay()))
                    .as("schedule %s", c)
                    .isTrue();
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
    default void schedule_refusesAnIdWithTheGeneratedMark_storingNothing() {
        DelayQueue<String> q = newDelayQueue();
        MessageId generated = q.send("x");
        MessageId copied = MessageId.of(generated.value());
        MessageId marked = MessageId.of(MessageId.GENERATED_MARK + "mine");

        assertThatThrownBy(() -> q.schedule(copied, "y", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(copied.value());
        assertThatThrownBy(() -> q.scheduleAt(marked, "y", time().now())).isInstanceOf(IllegalArgumentException.class);

        assertThat(q.stats().total()).isEqualTo(1);
    }

    @Test
    default void cancel_ofAGeneratedIdReadBackFromText_removesItsMessage() {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.schedule("x", delay());

        assertThat(q.cancel(MessageId.of(id.value()))).isTrue();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void staleDelivery_cannotSettleANewerMessage_scheduledUnderTheSameId() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        assumeLeases(q);
        MessageId id = MessageId.of("order-17");
        q.schedule(id, "first", Duration.ZERO);
        Delivery<String> stale = next(q);
        advancePastLease();
        Delivery<String> second = next(q);
        assertThat(second.ack()).isTrue();
        assertThat(q.schedule(id, "second", Duration.ZERO))
                .as("the id is free once acked")
                .isTrue();

        Delivery<String> fresh = next(q);

        assertThat(fresh.payload()).isEqualTo("second");
        assertThat(fresh.attempt()).isEqualTo(stale.attempt());
        assertThat(stale.ack()).as("stale ack").isFalse();
        assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();
        assertThat(stale.deadLetter("stale")).as("stale dead letter").isFalse();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(fresh.ack()).isTrue();
    }

    @Test
    default void schedule_withAnExistingId_isIgnored_andTheFirstPayloadStands() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("order-42-reminder");

        assertThat(q.schedule(id, "first", delay())).isTrue();
        assertThat(q.schedule(id, "second", Duration.ZERO)).isFalse();
        assertThat(q.scheduleAt(id, "third", time().now())).isFalse();

        assertThat(q.poll())
                .as("the second schedule's earlier due time was ignored")
                .isNull();
        assertThat(q.stats().delayed()).isEqualTo(1);
        advancePast(delay());
        Delivery<String> d = next(q);
        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("first");
        assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
    }

    @Test
    default void schedule_withTheIdOfAnInFlightMessage_isIgnored_untilItIsAcked() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("job-7");
        q.schedule(id, "first", Duration.ZERO);
        Delivery<String> d = next(q);

        assertThat(q.schedule(id, "again", Duration.ZERO)).isFalse();
        assertThat(q.poll()).isNull();

        d.ack();
        assertThat(q.schedule(id, "again", Duration.ZERO))
                .as("the id is free once acked")
                .isTrue();
        assertThat(next(q).payload()).isEqualTo("again");
    }

    @Test
    default void schedule_withTheIdOfADeadLetter_isIgnored_untilPurged() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("job-8");
        q.schedule(id, "first", Duration.ZERO);
        next(q).deadLetter("no");

        assertThat(q.schedule(id, "again", Duration.ZERO)).isFalse();
        assertThat(q.deadLetters().list(1).get(0).payload()).isEqualTo("first");

        q.deadLetters().purge();
        assertThat(q.schedule(id, "again", Duration.ZERO))
                .as("the id is free once purged")
                .isTrue();
    }

    @Test
    default void schedule_withTheIdOfACancelledMessage_storesAgain() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("job-9");
        q.schedule(id, "first", delay());
        q.cancel(id);

        assertThat(q.schedule(id, "second", Duration.ZERO)).isTrue();
        assertThat(next(q).payload()).isEqualTo("second");
    }
}
