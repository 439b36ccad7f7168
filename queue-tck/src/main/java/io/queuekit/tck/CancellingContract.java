package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.DelayQueue#cancel}: it removes a message that has not been
 * handed out, or whose lease expired, and nothing else.
 */
interface CancellingContract extends DelayQueueContract {

    @Test
    default void cancel_beforeDelivery_returnsTrue_andTheMessageIsNeverDelivered() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.schedule("cancelled", delay());

        assertThat(q.cancel(id)).isTrue();

        assertThat(q.stats().total()).isZero();
        advancePast(delay());
        assertNothingDelivered(q);
        assertThat(q.cancel(id)).as("second cancel").isFalse();
    }

    @Test
    default void cancel_ofADueMessageNotYetTaken_returnsTrue() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.schedule("due", Duration.ZERO);
        MessageId sent = q.send("sent");

        assertThat(q.cancel(id)).isTrue();
        assertThat(q.cancel(sent)).isTrue();

        assertThat(q.poll()).isNull();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void cancel_ofAMessageWhoseLeaseExpired_returnsTrue_andTheMessageIsNeverDeliveredAgain() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        assumeLeases(q);
        MessageId id = q.schedule("abandoned", Duration.ZERO);
        Delivery<String> stale = next(q);

        advancePastLease();

        assertThat(q.cancel(id)).as("waiting again once its lease expired").isTrue();
        assertThat(q.stats().total()).isZero();
        assertThat(stale.ack()).isFalse();
        assertNothingDelivered(q);
    }

    @Test
    default void cancel_afterDelivery_returnsFalse() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.schedule("taken", Duration.ZERO);
        Delivery<String> d = next(q);

        assertThat(q.cancel(id)).as("in flight").isFalse();
        assertThat(d.ack()).as("the delivery is unaffected").isTrue();
        assertThat(q.cancel(id)).as("acked").isFalse();
    }

    @Test
    default void cancel_ofADeadLetter_returnsFalse() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = q.send("dead");
        next(q).deadLetter("no");

        assertThat(q.cancel(id)).isFalse();
        assertThat(q.deadLetters().size()).isEqualTo(1);
    }

    @Test
    default void cancel_unknownId_returnsFalse() {
        DelayQueue<String> q = newDelayQueue();
        assertThat(q.cancel(MessageId.of("never-stored"))).isFalse();
    }
}
