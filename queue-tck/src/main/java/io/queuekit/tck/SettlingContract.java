package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract of settling a delivery: {@code ack}, {@code ackAll} and {@code retry} each settle
 * it once, and a retry comes back after its delay, never before, with its attempt raised. Dead
 * letters are in {@link DeadLetterContract}, leases in {@link LeaseContract}.
 */
interface SettlingContract extends QueueContract {

    @Test
    default void ack_returnsTrueOnce_thenFalse() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);

        assertThat(d.ack()).isTrue();
        assertThat(d.ack()).isFalse();
    }

    @Test
    default void ack_deletesTheMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        next(q).ack();

        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
    }

    @Test
    default void settling_afterAck_returnsFalse_andChangesNothing() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);
        d.ack();

        assertThat(d.retry(Duration.ZERO)).isFalse();
        assertThat(d.deadLetter("too late")).isFalse();
        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
    }

    @Test
    default void ackAll_settlesEachDeliveryOnce_andSkipsSettledOnes() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b", "c"));
        List<Delivery<String>> got = new ArrayList<>();
        while (got.size() < 3) {
            got.addAll(q.pollBatch(3 - got.size(), 10, TimeUnit.SECONDS));
        }
        assertThat(got.get(0).ack()).isTrue();

        assertThat(q.ackAll(got)).as("the two not yet acked").isEqualTo(2);
        assertThat(q.ackAll(got)).as("all already settled").isZero();
        assertThat(q.stats().total()).isZero();
        assertThat(got.get(1).ack()).isFalse();
        assertThatThrownBy(() -> q.ackAll(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    default void retry_withDelay_isNotRedeliveredBeforeTheDelay_thenWithAttemptRaised() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("x");
        Duration delay = visibilityTimeout().dividedBy(2);
        Delivery<String> d = next(q);
        Instant start = time().now();

        assertThat(d.retry(delay)).isTrue();

        assertThat(q.poll()).isNull();
        QueueStats waiting = q.stats();
        assertThat(waiting.delayed())
                .as("a retry counts as delayed while it waits")
                .isEqualTo(1);
        assertThat(waiting.inFlight()).isZero();
        assertThat(waiting.ready()).isZero();

        Delivery<String> again = assertNotBefore(delay, start, q);
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.payload()).isEqualTo("x");
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.ack()).isTrue();
    }

    @Test
    default void retry_withZeroDelay_goesBehindTheMessagesAlreadyWaiting() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b"));
        Delivery<String> a = next(q);

        assertThat(a.retry(Duration.ZERO)).isTrue();

        Delivery<String> n1 = next(q);
        Delivery<String> n2 = next(q);
        Delivery<String> retried = n1.id().equals(a.id()) ? n1 : n2;
        assertThat(retried.attempt()).isEqualTo(2);
        assumeOrdered(q);
        assertThat(n1.payload()).isEqualTo("b");
        assertThat(n2.payload()).isEqualTo("a");
    }

    @Test
    default void retry_isNeverEarly_byAFractionOfAMillisecond() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(1000));
        q.send("x");
        Delivery<String> d = next(q);
        Duration delay = Duration.ofNanos(2_500_000);

        for (int i = 0; i < 20; i++) {
            Instant start = time().now();
            assertThat(d.retry(delay)).isTrue();
            d = assertNotBefore(delay, start, q);
        }
        assertThat(d.ack()).isTrue();
    }

    @Test
    default void retry_twice_storesTheMessageOnce() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);

        assertThat(d.retry(Duration.ZERO)).isTrue();
        assertThat(d.retry(Duration.ZERO)).as("second retry").isFalse();

        assertThat(next(q).ack()).isTrue();
        assertNothingDelivered(q);
        assertThat(q.stats().total()).isZero();
    }

    // ---- settling once, whatever the guarantee (one guard on every transport)

    @Test
    default void settling_raced_fromManyThreads_succeedsForExactlyOneCall() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        Delivery<String> d = next(q);
        int threads = 6;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger won = new AtomicInteger();
        List<Thread> racers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int kind = i % 3;
            Thread t = new Thread(
                    () -> {
                        try {
                            start.await();
                            boolean first =
                                    kind == 0 ? d.ack() : kind == 1 ? d.retry(Duration.ZERO) : d.deadLetter("raced");
                            if (first) {
                                won.incrementAndGet();
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "settle-racer-" + i);
            t.start();
            racers.add(t);
        }
        start.countDown();
        for (Thread t : racers) {
            t.join(GENEROUS_MS);
        }

        assertThat(won.get()).as("settling calls that returned true").isEqualTo(1);
        assertThat(q.stats().total())
                .as("at most the one retried or dead-lettered copy")
                .isLessThanOrEqualTo(1);
        assertThat(q.stats().inFlight()).isZero();
    }
}
