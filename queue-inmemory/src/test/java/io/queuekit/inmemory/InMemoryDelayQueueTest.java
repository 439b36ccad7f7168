package io.queuekit.inmemory;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What is specific to the in-memory delay queue: semantics values, the clock, and reaping as on Redis. */
@Timeout(10)
class InMemoryDelayQueueTest {
    private final ManualClock clock = new ManualClock();
    private final List<InMemoryDelayQueue<?>> queues = new ArrayList<>();

    @AfterEach
    void close() {
        queues.forEach(InMemoryDelayQueue::close);
    }

    private InMemoryDelayQueue<String> queue(Clock c) {
        InMemoryDelayQueue<String> q =
                InMemoryDelayQueue.<String>builder("reminders").clock(c).build();
        queues.add(q);
        return q;
    }

    @Test
    void semantics_areThoseOfTheRedisZsetQueue() {
        InMemoryDelayQueue<String> q = InMemoryDelayQueue.create("reminders");
        queues.add(q);
        assertThat(q.semantics())
                .isEqualTo(new Semantics(
                        "in-memory",
                        Semantics.Guarantee.AT_LEAST_ONCE,
                        Semantics.Ordering.DUE_TIME,
                        true,
                        false,
                        true));
    }

    @Test
    void advancingAManualClock_byExactlyTheDelay_makesTheMessageDue() {
        InMemoryDelayQueue<String> q = queue(clock);
        q.schedule("x", Duration.ofMinutes(10));

        clock.advance(Duration.ofMinutes(10).minusNanos(1));
        assertThat(q.poll()).isNull();
        clock.advance(Duration.ofNanos(1));

        Delivery<String> d = q.poll();
        assertThat(d.payload()).isEqualTo("x");
        assertThat(d.enqueuedAt()).as("when scheduled, not when due").isEqualTo(ManualClock.DEFAULT_START);
    }

    @Test
    void aTakeBlockedOnAManualClock_wakesOnTheAdvanceThatMakesAMessageDue() throws Exception {
        InMemoryDelayQueue<String> q = queue(clock);
        q.schedule("x", Duration.ofDays(1));
        CompletableFuture<String> take = CompletableFuture.supplyAsync(() -> {
            try {
                return q.take().payload();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        clock.advance(Duration.ofHours(23));
        assertThat(q.stats().delayed()).isEqualTo(1);

        clock.advance(Duration.ofHours(1));

        assertThat(take.get(5, SECONDS)).isEqualTo("x");
    }

    @Test
    void withTheSystemClock_aBlockedTakeWakesWhenTheMessageFallsDue() throws Exception {
        InMemoryDelayQueue<String> q = queue(Clock.systemUTC());
        q.schedule("soon", Duration.ofMillis(100));

        CompletableFuture<String> take = CompletableFuture.supplyAsync(() -> {
            try {
                return q.take().payload();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(take.get(5, SECONDS)).isEqualTo("soon");
    }

    @Test
    void aPastDueTime_joinsTheReadyMessagesBehindThoseAlreadyReady() {
        InMemoryDelayQueue<String> q = queue(clock);
        q.schedule("due in a minute", Duration.ofMinutes(1));
        clock.advance(Duration.ofMinutes(2));

        q.scheduleAt("due an hour ago", clock.instant().minus(Duration.ofHours(1)));

        assertThat(q.poll().payload()).isEqualTo("due in a minute");
        assertThat(q.poll().payload()).isEqualTo("due an hour ago");
    }

    @Test
    void anExpiredLease_goesBackBehindWhatFellDueBeforeAReceiveReapedIt() {
        InMemoryDelayQueue<String> q = queue(clock);
        q.send("abandoned");
        assertThat(q.poll().payload()).isEqualTo("abandoned");
        q.schedule("due after the lease expired", Duration.ofSeconds(40));
        clock.advance(Duration.ofSeconds(50));

        // a claim on Redis reaps the lease at its own time, 50 s, behind the message due at 40 s
        assertThat(q.poll().payload()).isEqualTo("due after the lease expired");
        Delivery<String> again = q.poll();
        assertThat(again.payload()).isEqualTo("abandoned");
        assertThat(again.attempt()).isEqualTo(2);
    }

    @Test
    void cancel_ofAnExpiredLeaseOnItsLastAttempt_buriesIt_asCancelOnRedisDoes() {
        InMemoryDelayQueue<String> q = InMemoryDelayQueue.<String>builder("reminders")
                .clock(clock)
                .maxAttempts(1)
                .build();
        queues.add(q);
        MessageId id = q.send("x");
        q.poll();
        clock.advance(Duration.ofSeconds(30));
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));

        assertThat(q.cancel(id)).isFalse();

        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(q.deadLetters().find(id)).isPresent();
    }
}
