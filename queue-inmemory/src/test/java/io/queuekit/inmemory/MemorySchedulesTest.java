package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import io.queuekit.internal.ScheduleRunner;
import io.queuekit.internal.ScheduleStore;
import io.queuekit.internal.ScheduleStore.Entry;
import io.queuekit.internal.ScheduleStore.Tick;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The atomic steps of the in-memory schedules, interleaved by hand as two schedulers could run
 * them (the same cases as the Redis store's test): a fire from a stale read stores nothing, even
 * once its tick was delivered and acked; a schedule removed and put again gets a new version; a
 * changed put decides the tick not yet due even if it was cancelled by hand.
 */
class MemorySchedulesTest {
    private final ManualClock clock = new ManualClock();
    private final InMemoryDelayQueue<String> q =
            InMemoryDelayQueue.<String>builder("schedules").clock(clock).build();
    private final MemorySchedules<String> store = q.schedules();

    @Test
    void aFireFromAStaleRead_storesNothing_evenAfterItsTickWasAcked() {
        Entry e = store.put(Schedule.of("beat", Trigger.every(Duration.ofHours(1)), "tick"));
        long past = store.read().nowMillis() - 1_000;
        List<Tick> ticks = List.of(new Tick(ScheduleRunner.tickId("beat", past), past));

        assertThat(store.fire("beat", e.version(), e.base(), ticks, past)).isTrue();
        Delivery<String> d = q.poll();
        assertThat(d.id().value()).isEqualTo(ticks.get(0).id());
        assertThat(d.ack()).isTrue();

        assertThat(store.fire("beat", e.version(), e.base(), ticks, past)).isFalse();
        assertThat(q.poll()).as("the tick stored a second time").isNull();
    }

    @Test
    void aScheduleRemovedAndPutAgainInOneInstant_refusesAFireFromBefore() {
        Schedule<String> s = Schedule.of("job", Trigger.every(Duration.ofHours(1)), "tick");
        Entry before = store.put(s);
        assertThat(store.remove("job")).isTrue();
        Entry again = store.put(s);

        assertThat(again.version()).isNotEqualTo(before.version());
        long at = store.read().nowMillis() + 1_000;
        assertThat(store.fire(
                        "job",
                        before.version(),
                        before.base(),
                        List.of(new Tick(ScheduleRunner.tickId("job", at), at)),
                        at))
                .isFalse();
        assertThat(q.stats().total()).isZero();
    }

    @Test
    void aChangedPut_decidesTheTickNotYetDue_evenIfItWasCancelledByHand() {
        Entry e = store.put(Schedule.of("job", Trigger.every(Duration.ofHours(1)), "old"));
        long ahead = store.read().nowMillis() + 3_600_000;
        String id = ScheduleRunner.tickId("job", ahead);
        assertThat(store.fire("job", e.version(), e.base(), List.of(new Tick(id, ahead)), ahead))
                .isTrue();
        assertThat(q.cancel(MessageId.of(id))).isTrue();

        Entry changed = store.put(Schedule.of("job", Trigger.every(Duration.ofHours(1)), "new"));
        assertThat(changed.last()).isEqualTo(ScheduleStore.NONE);
        assertThat(changed.base()).isEqualTo(store.read().nowMillis());
    }
}
