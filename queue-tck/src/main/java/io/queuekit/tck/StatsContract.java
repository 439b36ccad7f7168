package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of what a queue says about itself: {@code stats()} counts ready, in-flight,
 * delayed and dead messages, each in its state; {@code semantics()} is constant and fits the queue's
 * type; {@code name()} is the name given.
 */
interface StatsContract extends QueueContract {

    @Test
    default void semantics_isConstant_andMatchesTheQueueType() {
        MessageQueue<String> q = newQueue();
        Semantics s = q.semantics();

        assertThat(s).isNotNull().isEqualTo(q.semantics());
        assertThat(s.transport()).isNotBlank();
        assertThat(s.delays()).as("delays() is true exactly for a DelayQueue").isEqualTo(q instanceof DelayQueue);
        assertThat(s.ordering()).as("a work queue has no publish order").isNotEqualTo(Semantics.Ordering.PUBLISH_ORDER);
    }

    @Test
    default void name_isTheNameGiven() {
        String name = uniqueName();
        MessageQueue<String> q = newQueue(name, config());
        assertThat(q.name()).isEqualTo(name);
    }

    @Test
    default void stats_countEachStateSeparately() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        q.sendAll(List.of("in-flight", "delayed", "dead", "ready"));
        Delivery<String> inFlight = next(q);
        next(q).retry(visibilityTimeout().multipliedBy(100));
        next(q).deadLetter("test");

        QueueStats s = q.stats();

        assertThat(s).isEqualTo(new QueueStats(1, 1, 1, 1));
        assertThat(s.total()).isEqualTo(4);
        inFlight.ack();
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
    }

    @Test
    default void stats_countAMessageWhoseLeaseExpired_asReady() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("abandoned");
        next(q);

        advancePastLease();

        await().untilAsserted(() -> assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0)));
    }

    @Test
    default void stats_countARetryThatFellDue_asReady() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("retried");
        Duration delay = visibilityTimeout().dividedBy(2);
        assertThat(next(q).retry(delay)).isTrue();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));

        advancePast(delay);

        await().untilAsserted(() -> assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0)));
    }
}
