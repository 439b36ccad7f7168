package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assumeLeases;
import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.quickOptionsBuilder;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The contract of leases, for at-least-once queues: an unsettled delivery comes back after its
 * lease with its attempt raised (once a receive reaps the lease, behind what is ready by then), and
 * to the dead letters after the last attempt; a lease lasts while its holder works (extended by
 * hand, renewed for managed handlers); a delivery settles only the hand-out it came from. Each
 * test of a lease is skipped on an at-most-once queue, whose promises are in
 * {@link AtMostOnceContract}.
 */
interface LeaseContract extends QueueContract {

    @Test
    default void unsettled_whileTheLeaseHolds_isNotDeliveredAgain() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("x");
        Instant beforeTheLease = time().now();
        Delivery<String> d = next(q);

        if (time().isVirtual()) {
            time().advance(visibilityTimeout().minusMillis(1));
            assertThat(q.poll())
                    .as("handed out again 1 ms before its lease ended")
                    .isNull();
            assertStillLeased(q.stats(), d.ack());
            return;
        }
        // most of the lease, leaving a margin for the time the server's lease starts later
        time().advance(visibilityTimeout().multipliedBy(2).dividedBy(5));
        Delivery<String> again = q.poll(quietPeriod().toMillis(), MILLISECONDS);
        QueueStats during = q.stats();
        boolean acked = d.ack();
        // the lease began after beforeTheLease: a host that stalled past it proves nothing here
        Duration took = Duration.between(beforeTheLease, time().now());
        assumeTrue(
                took.compareTo(visibilityTimeout().minusMillis(50)) < 0,
                "the host took " + took + " of the lease of " + visibilityTimeout() + ": nothing to conclude");
        assertThat(again)
                .as("no delivery from %s within %s", q.name(), quietPeriod())
                .isNull();
        assertStillLeased(during, acked);
    }

    /** {@code during}: the stats while the lease held; {@code acked}: the delivery's ack after. */
    private static void assertStillLeased(QueueStats during, boolean acked) {
        assertThat(during.ready()).as("ready while the lease holds").isZero();
        assertThat(during.inFlight()).as("in flight while the lease holds").isEqualTo(1);
        assertThat(acked).as("the delivery still owned its message").isTrue();
    }

    @Test
    default void unsettled_afterTheLease_isRedeliveredWithAttemptRaised() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        MessageId id = q.send("x");
        Delivery<String> first = next(q);

        advancePastLease();

        Delivery<String> second = next(q);
        assertThat(second.id()).isEqualTo(id);
        assertThat(second.payload()).isEqualTo("x");
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.enqueuedAt()).isEqualTo(first.enqueuedAt());
        assertThat(second.ack()).isTrue();
    }

    @Test
    default void anExpiredLease_isRedelivered_behindWhatWasSentBeforeItWasReaped() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        assumeOrdered(q);
        q.send("abandoned");
        Delivery<String> abandoned = next(q);
        advancePastLease();

        q.send("sent after the lease expired");

        Delivery<String> first = next(q);
        Delivery<String> second = next(q);
        assertThat(List.of(
                        first.payload() + ", attempt " + first.attempt(),
                        second.payload() + ", attempt " + second.attempt()))
                .as("an expired lease goes back when a receive reaps it, behind what is ready by then")
                .containsExactly("sent after the lease expired, attempt 1", "abandoned, attempt 2");
        assertThat(abandoned.ack()).as("the abandoned delivery").isFalse();
    }

    @Test
    default void ack_afterTheLeaseExpired_returnsFalse_andKeepsTheRedeliveredMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("x");
        Delivery<String> stale = next(q);

        advancePastLease();

        assertThat(stale.ack()).as("ack after the lease expired").isFalse();
        Delivery<String> again = next(q);
        assertThat(again.id()).isEqualTo(stale.id());
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(stale.ack())
                .as("stale ack while the message is in flight again")
                .isFalse();
        assertThat(q.stats().inFlight()).isEqualTo(1);
        assertThat(again.ack()).isTrue();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void take_reachesAMessageWhoseLeaseBeganAndExpiredWhileItWaited() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        Call<Delivery<String>> first = call("take", q::take);
        Call<Delivery<String>> second = call("take", q::take);
        Tck.awaitParked(first.thread(), quietPeriod());
        Tck.awaitParked(second.thread(), quietPeriod());

        q.send("abandoned"); // one of them takes it and abandons it; the other waits on
        await().until(() -> first.isDone() || second.isDone());
        Call<Delivery<String>> waiting = first.isDone() ? second : first;
        advancePastLease();

        Delivery<String> d = waiting.get();
        assertThat(d.payload()).isEqualTo("abandoned");
        assertThat(d.attempt()).isEqualTo(2);
    }

    @Test
    default void leaseExpiry_onTheLastAttempt_movesTheMessageToDeadLetters() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(2));
        assumeLeases(q);
        MessageId id = q.send("poison");
        next(q);
        advancePastLease();

        assertThat(next(q).attempt()).isEqualTo(2);
        advancePastLease();
        List<Delivery<String>> unexpected = new ArrayList<>();
        await().untilAsserted(() -> {
            Delivery<String> d = q.poll();
            if (d != null) {
                unexpected.add(d);
            }
            assertThat(q.deadLetters().size()).isEqualTo(1);
        });
        assertThat(unexpected).as("deliveries past the maximum attempts").isEmpty();
        DeadLetter<String> dl = q.deadLetters().list(10).get(0);
        assertThat(dl.id()).isEqualTo(id);
        assertThat(dl.payload()).isEqualTo("poison");
        assertThat(dl.attempts()).isEqualTo(2);
        assertThat(dl.reason()).isEqualTo("lease expired on attempt 2 of 2");
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    default void leaseExpiry_onTheLastAttempt_countsAsDeadOnlyOnceADeadLetter() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(1));
        assumeLeases(q);
        q.send("poison");
        next(q);
        advancePastLease();

        await().untilAsserted(
                        () -> { // the same answers, once no upkeep (of a gauge's stats) ran between them
                            QueueStats s = q.stats();
                            long size = q.deadLetters().size();
                            int listed = q.deadLetters().list(10).size();
                            assertThat(s.total()).isEqualTo(1);
                            assertThat(s.inFlight()).isZero();
                            assertThat(s.dead())
                                    .as("stats count dead letters alone")
                                    .isEqualTo(listed);
                            assertThat(size).as("dead letters counted").isEqualTo(listed);
                        });
        await().untilAsserted(() -> {
            assertThat(q.poll()).as("a delivery past the maximum attempts").isNull();
            assertThat(q.deadLetters().size()).isEqualTo(1);
        });
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    default void staleDelivery_cannotSettleItsMessage_requeuedFromTheDeadLetters() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        MessageId id = q.send("x");
        Delivery<String> stale = next(q);
        advancePastLease();
        Delivery<String> second = next(q);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.deadLetter("to be requeued")).isTrue();
        assertThat(q.deadLetters().requeue(id)).isTrue();

        Delivery<String> fresh = next(q);

        assertThat(fresh.id()).isEqualTo(id);
        assertThat(fresh.attempt())
                .as("a requeued message starts again at the stale one's attempt")
                .isEqualTo(stale.attempt());
        assertThat(stale.ack()).as("stale ack").isFalse();
        assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();
        assertThat(stale.deadLetter("stale")).as("stale dead letter").isFalse();
        assertThat(stale.extendLease(visibilityTimeout()))
                .as("stale lease extension")
                .isFalse();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(fresh.ack()).as("the fresh delivery still owns its message").isTrue();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    default void staleDelivery_afterTheNewerOneRetried_cannotSettleTwice() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("x");
        Delivery<String> stale = next(q);
        advancePastLease();
        Delivery<String> second = next(q);

        assertThat(second.retry(Duration.ZERO)).isTrue();
        assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();

        Delivery<String> third = next(q);
        assertThat(third.attempt()).isEqualTo(3);
        assertNothingDelivered(q);
        assertThat(third.ack()).isTrue();
    }

    @Test
    default void extendLease_keepsTheMessageFromComingBack_untilTheLongerLeaseEnds() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("x");
        Delivery<String> d = next(q);

        assertThat(d.extendLease(visibilityTimeout().multipliedBy(3))).isTrue();

        advancePastLease();
        assertNothingDelivered(q);
        assertThat(d.ack())
                .as("still owned after the first lease would have ended")
                .isTrue();
    }

    @Test
    default void extendLease_afterTheLeaseExpired_returnsFalse_andTheMessageComesBack() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        q.send("x");
        Delivery<String> d = next(q);
        advancePastLease();

        assertThat(d.extendLease(visibilityTimeout())).isFalse();

        assertThat(next(q).attempt()).isEqualTo(2);
    }

    @Test
    default void extendLease_afterSettling_returnsFalse() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);
        assertThat(d.extendLease(visibilityTimeout())).as("unsettled").isTrue();
        assertThat(d.ack()).isTrue();

        assertThat(d.extendLease(visibilityTimeout())).isFalse();
    }

    @Test
    default void managedHandler_slowerThanTheLease_keepsItsMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        closeLater(q.consume(
                d -> {
                    attempts.add(d.attempt());
                    started.countDown();
                    release.await();
                },
                quickOptions(1, Duration.ZERO)));
        q.send("slow");
        assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        try {
            time().advance(visibilityTimeout().multipliedBy(5).dividedBy(2));
            assertNothingDelivered(q);
        } finally {
            release.countDown();
        }

        await().untilAsserted(() -> {
            assertThat(q.stats().total()).isZero();
            assertThat(reported(q).acked.get()).isEqualTo(1);
        });
        assertThat(attempts).containsExactly(1);
        assertThat(reported(q).redelivered.get()).isZero();
    }

    @Test
    default void managedHandler_stillRunningWhenItsConsumerClosed_losesItsMessageAfterOneLease() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Subscription sub = q.consume(
                d -> {
                    started.countDown();
                    while (true) { // deaf to the interrupt of the close
                        try {
                            release.await();
                            return;
                        } catch (InterruptedException e) {
                            // keeps waiting
                        }
                    }
                },
                quickOptionsBuilder(1, Duration.ZERO)
                        .shutdownTimeout(Duration.ofMillis(100))
                        .build());
        q.send("hangs");
        assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        try {
            sub.close();
            advancePastLease();
            Delivery<String> again = next(q);
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.ack()).isTrue();
        } finally {
            release.countDown();
        }
    }

    @Test
    default void managedHandler_pastTheRenewalLimit_losesItsMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeLeases(q);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        closeLater(q.consume(
                d -> {
                    started.countDown();
                    release.await();
                },
                quickOptionsBuilder(1, Duration.ZERO)
                        .leaseRenewalLimit(visibilityTimeout())
                        .build()));
        q.send("hangs");
        assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        try {
            advancePast(visibilityTimeout().multipliedBy(2)); // the limit, then at most one lease
            Delivery<String> again = next(q);
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.ack()).isTrue();
        } finally {
            release.countDown();
        }
    }
}
