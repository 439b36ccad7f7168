package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.internal.Receiver.Kind;
import io.queuekit.internal.Receiver.Step;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The rules of the wake-up protocol, one at a time, on a virtual clock; {@link WakeUpsSimulationTest}
 * checks them together under random interleavings. Server time here is this clock in ms from 0.
 */
class WakeUpsTest {
    private static final long BLOCK = 1_000;
    private static final long HORIZON = 10_000;
    private static final long TICK = 100;
    private static final long MIN_BLOCK = 10;

    private final AtomicLong nanos = new AtomicLong();
    private final WakeUps wakeUps = new WakeUps(nanos::get, BLOCK, HORIZON, TICK, MIN_BLOCK);
    private WakeUps.Receive a;
    private WakeUps.Receive b;

    private long now() {
        return nanos.get() / 1_000_000;
    }

    private void advanceTo(long millis) {
        nanos.set(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private WakeUps.Receive receive(long timeoutMillis) {
        return wakeUps.begin(1, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    /** A receive that entered and claimed nothing, with nothing known to come. */
    private WakeUps.Receive enteredAndFoundNothing(long timeoutMillis) {
        WakeUps.Receive r = receive(timeoutMillis);
        assertThat(r.next().kind()).isEqualTo(Kind.CLAIM);
        r.claimed(now(), WakeUps.NONE, false);
        return r;
    }

    /** Two receives of the object, {@link #a} and {@link #b}, both waiting for wake-ups. */
    private void twoWaiting() {
        a = enteredAndFoundNothing(60_000);
        b = receive(60_000);
        b.next();
        a.next();
    }

    @Test
    void aWakeUpTakenOffTheList_isWatched_andClaimedAtItsTime() {
        WakeUps.Receive r = enteredAndFoundNothing(60_000);
        assertThat(r.next()).isEqualTo(new Step(Kind.BLOCK, BLOCK));

        r.woke(2_000);

        assertThat(r.holds()).isTrue();
        assertThat(r.next())
                .as("blocks until a tick before, sleeps the tick here")
                .isEqualTo(new Step(Kind.BLOCK, 1_900));
        advanceTo(1_900);
        assertThat(r.next()).isEqualTo(new Step(Kind.SLEEP, 100));
        advanceTo(2_000);
        assertThat(r.next().kind()).isEqualTo(Kind.CLAIM);
    }

    @Test
    void aWakeUpForATimeAlreadyCome_isClaimedAtOnce() {
        WakeUps.Receive r = enteredAndFoundNothing(60_000);
        r.next();
        advanceTo(500);

        r.woke(400);

        assertThat(r.next().kind()).isEqualTo(Kind.CLAIM);
    }

    @Test
    void aReceiveThatLeavesBeforeItsWakeUpsTime_handsItOn() {
        WakeUps.Receive r = enteredAndFoundNothing(1_000);
        r.next();
        r.woke(3_000);
        advanceTo(1_000);

        assertThat(r.next().kind()).as("its caller's time is up").isEqualTo(Kind.RETURN);
        assertThat(r.leave()).isEqualTo(3_000);
        assertThat(wakeUps.duty()).isEqualTo(WakeUps.NONE);
    }

    @Test
    void aClaimReplyThatArrivesLate_doesNotDropAWakeUpAnotherReceiveTookMeanwhile() {
        a = receive(60_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM); // its reply is slow to come
        b = enteredAndFoundNothing(1_000);
        b.next();
        advanceTo(200);
        b.woke(2_000);

        a.claimed(100, WakeUps.NONE, false); // ran before the wake-up was pushed: "nothing comes"

        assertThat(wakeUps.duty()).as("the duty the wake-up gave stands").isEqualTo(2_000);
        assertThat(b.holds()).isTrue();
        advanceTo(1_000);
        assertThat(b.next().kind()).isEqualTo(Kind.RETURN);
        assertThat(b.leave())
                .as("b's poll ends: it hands the wake-up on, not to the list")
                .isEqualTo(WakeUps.NONE);
        assertThat(a.holds()).as("but to a, which waits here still").isTrue();
        assertThat(wakeUps.duty()).isEqualTo(2_000);
    }

    @Test
    void aLaterWakeUp_isDischargedByTheEarlierOnesClaim_andNotClaimedAgain() {
        twoWaiting();
        a.woke(2_000);
        b.woke(2_500);
        assertThat(b.next()).as("b watches its own").isEqualTo(new Step(Kind.BLOCK, 2_400));
        advanceTo(2_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM);

        a.claimed(2_000, 2_500, true); // took the first message; its script woke a consumer for 2,500

        assertThat(b.holds()).as("covered by that wake-up").isFalse();
        advanceTo(2_400);
        assertThat(b.next()).as("so b does not claim at 2,500").isEqualTo(new Step(Kind.BLOCK, BLOCK));
        assertThat(a.leave()).isEqualTo(WakeUps.NONE);
    }

    @Test
    void aClaimThatTookSomething_keepsAWakeUpTakenWhileItWasOnItsWay() {
        twoWaiting();
        a.woke(1_000);
        advanceTo(1_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM);
        // the claim runs, takes a message, and wakes b for the next one, due at 1,200, before a's reply
        b.woke(1_200);

        a.claimed(1_000, 1_200, true);

        assertThat(wakeUps.duty()).isEqualTo(1_200);
        assertThat(b.holds()).isTrue();
        assertThat(a.leave()).as("a leaves with what it took, owing nothing").isEqualTo(WakeUps.NONE);
    }

    @Test
    void aClaimAtItsDutyThatFindsNothing_watchesWhatItFound() {
        WakeUps.Receive a = enteredAndFoundNothing(60_000);
        a.next();
        a.woke(1_000);
        advanceTo(1_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM);

        a.claimed(1_000, 4_000, false); // its message was cancelled; another is due at 4,000

        assertThat(wakeUps.duty()).isEqualTo(4_000);
        assertThat(a.holds()).isTrue();
    }

    @Test
    void anEnteringReceive_trustsTheLatestClaim_andClaimsAgainAtTheHorizon() {
        enteredAndFoundNothing(1).leave();
        WakeUps.Receive r = receive(60_000);
        assertThat(r.next())
                .as("trusts: nothing comes that a wake-up would not announce")
                .isEqualTo(new Step(Kind.BLOCK, BLOCK));
        advanceTo(HORIZON);

        assertThat(r.next().kind())
                .as("the horizon: a wake-up may have died with a process")
                .isEqualTo(Kind.CLAIM);
        r.claimed(now(), 15_000, false);
        assertThat(wakeUps.duty()).as("a horizon claim's finding is a duty").isEqualTo(15_000);
    }

    @Test
    void aReceiveWhoseLastStretchWasSlept_readsTheListOnceBeforeReturning() {
        WakeUps.Receive r = enteredAndFoundNothing(150);
        assertThat(r.next()).isEqualTo(new Step(Kind.BLOCK, 50));
        advanceTo(50);
        assertThat(r.next()).isEqualTo(new Step(Kind.SLEEP, 100));
        advanceTo(150);

        assertThat(r.next().kind()).isEqualTo(Kind.POP);
        r.woke(120); // sent during the stretch slept here: due, so claimed now
        assertThat(r.next().kind()).isEqualTo(Kind.CLAIM);
    }

    @Test
    void oneReceivePerObjectBlocks_theOthersWaitHere_untilItStops() {
        twoWaiting(); // b blocks on the list, a waits in this process
        assertThat(wakeUps.blocking()).isTrue();
        WakeUps.Receive c = receive(60_000);

        assertThat(c.next()).as("b blocks already").isEqualTo(new Step(Kind.SLEEP, BLOCK));
        assertThat(c.stirred()).isFalse();
        b.woke(WakeUps.NONE);
        b.leave();

        assertThat(c.stirred()).as("the list is free").isTrue();
        assertThat(c.next()).isEqualTo(new Step(Kind.BLOCK, BLOCK));
        assertThat(a.next()).isEqualTo(new Step(Kind.SLEEP, BLOCK));
    }

    @Test
    void aWaitingReceiveWithADuty_waitsHereUntilItsTime_withoutATick() {
        twoWaiting(); // b blocks, a waits here
        b.woke(3_000);
        assertThat(b.leave()).as("handed to a").isEqualTo(WakeUps.NONE);
        WakeUps.Receive c = receive(60_000);
        assertThat(c.next()).as("trusts, a's duty covering the next event").isEqualTo(new Step(Kind.BLOCK, BLOCK));

        assertThat(a.next()).as("c blocks: a waits here, all of it").isEqualTo(new Step(Kind.SLEEP, 3_000));
        advanceTo(3_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM);
    }

    @Test
    void aWatchedClaimThatTakes_leavesTheNextEventToAReceiveWaitingHere() {
        twoWaiting(); // b blocks, a waits here
        WakeUps.Receive c = receive(30_000); // enters, trusted, waits here
        assertThat(c.next().kind()).isEqualTo(Kind.SLEEP);
        a.woke(1_000);
        advanceTo(1_000);

        Step claim = a.next();
        assertThat(claim.kind()).isEqualTo(Kind.CLAIM);
        assertThat(claim.watched()).as("c waits here to take on what it finds").isTrue();
        a.claimed(1_000, 1_400, true); // its script woke no one for 1,400

        assertThat(a.leave()).as("nothing to push").isEqualTo(WakeUps.NONE);
        assertThat(wakeUps.duty()).isEqualTo(1_400);
        assertThat(c.holds()).as("c, waiting here, not b on the list").isTrue();
        assertThat(b.holds()).isFalse();
        assertThat(c.stirred()).isTrue();
    }

    @Test
    void aDutyIsHandedToAReceiveWaitingHere_elseToTheList() {
        twoWaiting(); // b blocks, a waits here
        a.woke(5_000);
        advanceTo(1_000);

        assertThat(a.leave()).as("only b is left, blocked on the list").isEqualTo(5_000);

        WakeUps.Receive c = receive(60_000);
        c.next();
        c.woke(6_000);
        WakeUps.Receive d = receive(30_000);
        d.next();
        assertThat(c.leave()).as("d waits here").isEqualTo(WakeUps.NONE);
        assertThat(d.holds()).isTrue();
        assertThat(d.stirred()).isTrue();
    }

    @Test
    void aDueDuty_waitsForAClaimOnItsWayThatDischargesIt() {
        twoWaiting();
        a.woke(1_000);
        b.woke(1_000);
        advanceTo(1_000);
        assertThat(a.next().kind()).isEqualTo(Kind.CLAIM);

        assertThat(b.next().kind())
                .as("a's claim, sent since b took its duty, discharges it")
                .isEqualTo(Kind.SLEEP);
        a.claimed(1_000, 2_000, true);

        assertThat(b.stirred()).isTrue();
        assertThat(b.holds()).isFalse();
    }

    @Test
    void theLastReceiveOnly_readsTheListAtItsDeadline() {
        WakeUps.Receive r = enteredAndFoundNothing(150);
        WakeUps.Receive other = receive(150);
        assertThat(r.next()).isEqualTo(new Step(Kind.BLOCK, 50));
        assertThat(other.next()).isEqualTo(new Step(Kind.SLEEP, 150));
        advanceTo(50);
        r.woke(WakeUps.NONE);
        assertThat(r.next()).isEqualTo(new Step(Kind.SLEEP, 100));
        assertThat(other.stirred()).as("r stopped blocking").isTrue();
        assertThat(other.next()).as("too short to block").isEqualTo(new Step(Kind.SLEEP, 100));
        advanceTo(150);

        assertThat(r.next().kind())
                .as("another receive of the object is still here")
                .isEqualTo(Kind.RETURN);
        r.leave();
        assertThat(other.next().kind()).as("the last one reads the list").isEqualTo(Kind.POP);
    }
}
