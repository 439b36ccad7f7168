package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.Semantics;
import io.queuekit.internal.LeaseKeeper;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-memory lease keeper that managed consumers hold their deliveries with, on a manual
 * clock: a hold counts from when it was asked for, keeps a lease only while it still runs, comes
 * before later changes to the lease, and on release or close leaves the lease as if just renewed.
 */
@Timeout(10)
class InMemoryLeaseKeeperTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final Duration MS = Duration.ofMillis(1);

    private final ManualClock clock = new ManualClock();
    private final Engine<String> engine;
    private final LeaseKeeper keeper;

    InMemoryLeaseKeeperTest() {
        Settings<String> s = new Settings<>("leases");
        s.clock(clock);
        s.visibilityTimeout(LEASE);
        engine = new Engine<>(
                s,
                new Semantics(
                        "in-memory", Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.FIFO, true, false, false));
        keeper = engine.leaseKeeper();
    }

    @AfterEach
    void close() {
        keeper.close();
        engine.runtime().close();
    }

    private Delivery<String> sentAndPolled() {
        engine.sending.send("x", Headers.empty());
        Delivery<String> d = engine.runtime().poll();
        assertThat(d).isNotNull();
        return d;
    }

    @Test
    void hold_keepsTheLease_untilTheLimitAndOneLeaseFromWhenItWasAsked() {
        Delivery<String> d = sentAndPolled();
        clock.advance(Duration.ofSeconds(1));
        keeper.hold(d, LIMIT);

        clock.advance(LIMIT.plus(LEASE).minus(MS));
        assertThat(engine.runtime().poll())
                .as("handed out again 1 ms before the hold ends")
                .isNull();
        clock.advance(MS);
        Delivery<String> again = engine.runtime().poll();
        assertThat(again).isNotNull();
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(d.ack()).as("the held delivery, after its hold ended").isFalse();
    }

    @Test
    void hold_askedForAfterTheLeaseEnded_keepsNothing() {
        Delivery<String> d = sentAndPolled();
        clock.advance(LEASE);

        keeper.hold(d, LIMIT);

        Delivery<String> again = engine.runtime().poll();
        assertThat(again).isNotNull();
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(d.ack()).isFalse();
        assertThat(again.ack()).isTrue();
    }

    @Test
    void extendLease_afterAHold_setsTheLease_evenShorter() {
        Delivery<String> d = sentAndPolled();
        keeper.hold(d, LIMIT);

        assertThat(d.extendLease(Duration.ofSeconds(1))).isTrue();

        clock.advance(Duration.ofSeconds(1));
        assertThat(engine.runtime().poll())
                .as("handed out again once the extension ended")
                .isNotNull();
    }

    @Test
    void release_leavesTheLeaseAsIfJustRenewed() {
        Delivery<String> d = sentAndPolled();
        LeaseKeeper.Hold hold = keeper.hold(d, LIMIT);
        clock.advance(Duration.ofMinutes(5));

        hold.release();

        clock.advance(LEASE.minus(MS));
        assertThat(engine.runtime().poll())
                .as("handed out again 1 ms before the renewed lease ends")
                .isNull();
        clock.advance(MS);
        assertThat(engine.runtime().poll()).isNotNull();
    }

    @Test
    void release_afterTheDeliverySettled_changesNothing() {
        Delivery<String> d = sentAndPolled();
        LeaseKeeper.Hold hold = keeper.hold(d, LIMIT);
        assertThat(d.retry(Duration.ZERO)).isTrue();
        Delivery<String> again = engine.runtime().poll();
        assertThat(again.attempt()).isEqualTo(2);
        LeaseKeeper.Hold next = keeper.hold(again, LIMIT);

        hold.release();

        clock.advance(LEASE.plus(Duration.ofMinutes(5)));
        assertThat(engine.runtime().poll())
                .as("the second hand-out, held, handed out again")
                .isNull();
        next.release();
        assertThat(again.ack()).isTrue();
    }

    @Test
    void close_releasesWhatItHolds_asIfJustRenewed() {
        Delivery<String> d = sentAndPolled();
        keeper.hold(d, LIMIT);
        clock.advance(Duration.ofMinutes(5));

        keeper.close();

        clock.advance(LEASE.minus(MS));
        assertThat(engine.runtime().poll()).isNull();
        clock.advance(MS);
        assertThat(engine.runtime().poll()).isNotNull();
    }

    @Test
    void hold_afterClose_keepsNothingBeyondOneLease() {
        Delivery<String> d = sentAndPolled();
        keeper.close();

        keeper.hold(d, LIMIT);

        clock.advance(LEASE);
        assertThat(engine.runtime().poll()).isNotNull();
    }

    @Test
    void holdingTwice_keepsTheLease_untilTheLaterHoldEnds() {
        Delivery<String> d = sentAndPolled();
        keeper.hold(d, LIMIT);
        clock.advance(Duration.ofMinutes(1));
        keeper.hold(d, LIMIT);

        clock.advance(LIMIT.plus(LEASE).minus(MS));
        assertThat(engine.runtime().poll())
                .as("handed out again 1 ms before the second hold ends")
                .isNull();
        clock.advance(MS);
        assertThat(engine.runtime().poll()).isNotNull();
    }
}
