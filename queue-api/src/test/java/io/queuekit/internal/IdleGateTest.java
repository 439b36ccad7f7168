package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.internal.Receiver.Kind;
import io.queuekit.internal.Receiver.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Rule 10 of the wake-up protocol (one blocks per idle object), on a virtual clock. */
class IdleGateTest {
    private static final long BLOCK = 1_000;

    private final AtomicLong nanos = new AtomicLong();
    private final IdleGate gate = new IdleGate(nanos::get, BLOCK);
    private final Receiver.Plans plans = gate.plans(max -> max > 1);

    private IdleGate.Receive receive(long timeoutMillis) {
        return (IdleGate.Receive) plans.begin(1, TimeUnit.MILLISECONDS.toNanos(timeoutMillis), false);
    }

    private void advance(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** An idle object whose receive {@code a} holds the gate. */
    private IdleGate.Receive idleWithHolder() {
        IdleGate.Receive first = receive(60_000);
        assertThat(first.next()).isEqualTo(new Step(Kind.BLOCK, BLOCK));
        advance(BLOCK);
        first.woke(WakeUps.NONE);
        assertThat(gate.idle()).isTrue();
        assertThat(first.next()).isEqualTo(new Step(Kind.BLOCK, BLOCK));
        return first;
    }

    @Test
    void aBusyObject_everyReceiveBlocksOnItsOwn() {
        for (int i = 0; i < 3; i++) {
            assertThat(receive(5_000).next()).isEqualTo(new Step(Kind.BLOCK, BLOCK));
        }
        assertThat(gate.idle()).isFalse();
    }

    @Test
    void anIdleObject_oneBlocks_theOthersWaitHere() {
        idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        IdleGate.Receive c = receive(300);
        assertThat(b.next()).isEqualTo(new Step(Kind.SLEEP, BLOCK));
        assertThat(c.next()).isEqualTo(new Step(Kind.SLEEP, 300));
        assertThat(b.stirred()).isFalse();

        advance(300);
        assertThat(c.next().kind()).as("its deadline came, with no call").isEqualTo(Kind.RETURN);
        c.leave();
        assertThat(b.stirred())
                .as("one that waited here leaving changes nothing")
                .isFalse();
    }

    @Test
    void theHolderTakingSomething_stirsTheOthers_whoBlockOnTheirOwn() {
        IdleGate.Receive a = idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        IdleGate.Receive c = receive(60_000);
        b.next();
        c.next();

        a.took();
        a.leave();

        assertThat(b.stirred()).isTrue();
        assertThat(c.stirred()).isTrue();
        assertThat(gate.idle()).isFalse();
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(c.next().kind()).as("a burst reaches them all").isEqualTo(Kind.BLOCK);
    }

    @Test
    void aHolderWhoseBlockNeverEnds_isPassedOver_halfABlockTimeoutAfterItShouldHaveEnded() {
        IdleGate.Receive frozen = idleWithHolder(); // its connection went silent: it never comes back
        IdleGate.Receive b = receive(60_000);

        assertThat(b.next()).isEqualTo(new Step(Kind.SLEEP, BLOCK));
        advance(BLOCK);
        assertThat(b.next())
                .as("the holder's block may still be on its way back")
                .isEqualTo(new Step(Kind.SLEEP, BLOCK / 2 + 1));
        advance(BLOCK / 2 + 1);

        assertThat(b.next()).as("overdue: passed over").isEqualTo(new Step(Kind.BLOCK, BLOCK));
        assertThat(b.holds()).isTrue();
        assertThat(frozen.holds()).isFalse();
        frozen.leave();
        assertThat(b.holds())
                .as("the old holder leaving at last takes nothing from the new")
                .isTrue();
    }

    @Test
    void anEmptyReplyOlderThanATake_leavesTheObjectBusy() {
        IdleGate.Receive a = receive(60_000);
        IdleGate.Receive b = receive(60_000);
        assertThat(a.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);

        a.took();
        b.woke(WakeUps.NONE); // b's block was sent before a took: its empty reply says nothing now

        assertThat(gate.idle()).isFalse();
        assertThat(receive(60_000).next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);
        b.woke(WakeUps.NONE); // planned after the take: the object is idle now
        assertThat(gate.idle()).isTrue();
    }

    @Test
    void theHolderLeaving_stirsTheOthers_andOneTakesItsPlace() {
        IdleGate.Receive a = idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        IdleGate.Receive c = receive(60_000);
        b.next();
        c.next();

        a.leave(); // its deadline, an interrupt, a failed call

        assertThat(b.stirred()).isTrue();
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(c.next().kind()).isEqualTo(Kind.SLEEP);
    }

    @Test
    void theHolderBlockingAgain_keepsTheGate_andStirsNoOne() {
        IdleGate.Receive a = idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        b.next();
        advance(BLOCK);
        a.woke(WakeUps.NONE);

        assertThat(a.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(b.stirred()).isFalse();
    }

    @Test
    void theHolderReturningAtItsDeadline_freesTheGate() {
        IdleGate.Receive a = receive(BLOCK);
        a.next();
        advance(BLOCK);
        a.woke(WakeUps.NONE);
        IdleGate.Receive b = receive(60_000);
        IdleGate.Receive c = receive(60_000);
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(c.next().kind()).isEqualTo(Kind.SLEEP);

        advance(BLOCK);
        b.woke(WakeUps.NONE);
        assertThat(b.next().kind()).isEqualTo(Kind.BLOCK);
        assertThat(a.next().kind()).isEqualTo(Kind.RETURN);
        a.leave();
        assertThat(c.stirred()).as("a did not hold the gate").isFalse();
    }

    @Test
    void aReceiveCarryingAnAck_blocksOnItsOwnWhileIdle() {
        idleWithHolder();
        Receiver.Plan acking = plans.begin(1, TimeUnit.SECONDS.toNanos(5), true);
        assertThat(acking.next().kind()).isEqualTo(Kind.BLOCK);

        advance(BLOCK);
        acking.woke(WakeUps.NONE);
        assertThat(acking.next().kind()).as("its ack went with its block").isEqualTo(Kind.SLEEP);
    }

    @Test
    void aBatchClaimsFirst_andWhatItTakesEndsIdleness() {
        idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        b.next();
        Receiver.Plan batch = plans.begin(10, TimeUnit.SECONDS.toNanos(5), false);
        assertThat(batch.next().kind()).isEqualTo(Kind.CLAIM);

        batch.claimed(WakeUps.NONE, WakeUps.NONE, true);

        assertThat(gate.idle()).isFalse();
        assertThat(b.stirred()).isTrue();
    }

    @Test
    void stirring_wakesEveryoneWaitingHere() {
        idleWithHolder();
        IdleGate.Receive b = receive(60_000);
        b.next();

        gate.stir(); // the queue closes

        assertThat(b.stirred()).isTrue();
    }

    /**
     * Random receives stepping in random order: whenever one waits here, unstirred, while the
     * object is idle, another holds the gate and blocks. And while the object is idle, at most one
     * receive that began its block while idle and carried no ack blocks.
     */
    @Test
    void anyInterleaving_someoneBlocksForThoseWaitingHere() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            IdleGate g = new IdleGate(nanos::get, BLOCK);
            Receiver.Plans p = g.plans(max -> max > 1);
            List<Sim> sims = new ArrayList<>();
            for (int i = 0; i < 2 + random.nextInt(6); i++) {
                sims.add(new Sim());
            }
            for (int step = 0; step < 400; step++) {
                Sim s = sims.get(random.nextInt(sims.size()));
                s.random = random;
                if (s.plan == null) {
                    s.begin(g, p, random);
                } else if (s.step == null
                        || s.step.kind() == Kind.SLEEP && (s.plan.stirred() || random.nextInt(4) == 0)) {
                    s.next();
                } else if (s.step.kind() == Kind.BLOCK) {
                    s.blockEnds(random);
                }
                advance(random.nextInt(50));
                long gated = sims.stream()
                        .filter(x -> x.step != null && x.step.kind() == Kind.BLOCK && x.gated)
                        .count();
                assertThat(gated).as("seed %d: gated blocks", seed).isLessThanOrEqualTo(1);
                boolean waitingHere =
                        sims.stream().anyMatch(x -> x.step != null && x.step.kind() == Kind.SLEEP && !x.plan.stirred());
                // or is about to: its block ended, and it holds the gate until its next step
                boolean blocking = sims.stream()
                        .anyMatch(x ->
                                x.plan != null && (x.step != null && x.step.kind() == Kind.BLOCK || x.plan.holds()));
                if (waitingHere) {
                    assertThat(blocking)
                            .as("seed %d: someone blocks for those waiting here", seed)
                            .isTrue();
                }
            }
        }
    }

    private static final class Sim {
        IdleGate gate;
        IdleGate.Receive plan;
        Step step;
        /** Whether its current block began while the object was idle, carrying no ack. */
        boolean gated;

        boolean carrying;
        Random random;

        void begin(IdleGate g, Receiver.Plans p, Random random) {
            gate = g;
            carrying = random.nextBoolean();
            plan = (IdleGate.Receive) p.begin(
                    random.nextInt(3) == 0 ? 10 : 1,
                    TimeUnit.MILLISECONDS.toNanos(1 + random.nextInt(3_000)),
                    carrying);
            step = null;
        }

        void next() {
            boolean wasIdle = gate.idle();
            step = plan.next();
            gated = step.kind() == Kind.BLOCK && wasIdle && !carrying;
            if (step.kind() == Kind.BLOCK || step.kind() == Kind.CLAIM) {
                carrying = false;
            }
            switch (step.kind()) {
                case CLAIM -> {
                    boolean took = random.nextBoolean();
                    plan.claimed(WakeUps.NONE, WakeUps.NONE, took);
                    step = null;
                    if (took) {
                        end();
                    }
                }
                case RETURN -> end();
                default -> {}
            }
        }

        void blockEnds(Random random) {
            int what = random.nextInt(4);
            if (what == 0) {
                plan.took();
                end();
            } else if (what == 1) {
                end(); // interrupted, failed, or closing
            } else {
                plan.woke(WakeUps.NONE);
                step = null;
            }
        }

        void end() {
            plan.leave();
            plan = null;
            step = null;
        }
    }
}
