package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeAtMostOnce;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of at-most-once queues: a message handed out is gone from the queue, settled or
 * not, so nothing comes back after the visibility timeout, nothing is counted in flight, and an
 * unsettled message never reaches the dead letters. Each test is skipped on an at-least-once
 * queue, whose promises are in {@link LeaseContract}.
 */
interface AtMostOnceContract extends QueueContract {

    @Test
    default void unsettled_afterTheVisibilityTimeout_isNeverDeliveredAgain() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeAtMostOnce(q);
        q.send("x");
        next(q);

        advancePastLease();

        assertNothingDelivered(q);
        assertThat(q.stats().total()).as("gone once handed out").isZero();
    }

    @Test
    default void ack_afterTheVisibilityTimeout_returnsTrue_andNothingComesBack() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeAtMostOnce(q);
        q.send("x");
        Delivery<String> d = next(q);

        advancePastLease();

        assertThat(d.ack()).as("no lease to expire").isTrue();
        assertNothingDelivered(q);
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void unsettled_onItsLastAttempt_isNotDeadLettered() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(1));
        assumeAtMostOnce(q);
        q.send("x");
        next(q);

        advancePastLease();

        assertNothingDelivered(q);
        assertThat(q.deadLetters().size()).isZero();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void stats_countAMessageHandedOut_nowhere() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeAtMostOnce(q);
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        q.sendAll(List.of("handed out", "delayed", "dead", "ready"));
        Delivery<String> handedOut = next(q);
        next(q).retry(visibilityTimeout().multipliedBy(100));
        next(q).deadLetter("test");

        QueueStats s = q.stats();

        assertThat(s).isEqualTo(new QueueStats(1, 0, 1, 1));
        assertThat(s.total()).isEqualTo(3);
        assertThat(handedOut.ack()).isTrue();
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
    }
}
