package io.queuekit.redis.zset;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import io.queuekit.internal.ScheduleRunner;
import io.queuekit.internal.ScheduleStore;
import io.queuekit.internal.ScheduleStore.Entry;
import io.queuekit.internal.ScheduleStore.Tick;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * The atomic steps of the schedules on Redis, interleaved by hand as two schedulers in two
 * processes could run them: a fire from a stale read stores nothing, even once the tick it read
 * was delivered and acked (so its id is free again for the chosen-id rule); a put of the stored
 * schedule changes nothing; a changed one withdraws the tick stored ahead.
 */
@RedisServerTest
class ZsetSchedulesTest {
    private final RedisClient client;

    ZsetSchedulesTest(RedisClient client) {
        this.client = client;
    }

    private RedisDelayQueue<String> queue() {
        return RedisDelayQueue.builder(client, "schedules-" + UUID.randomUUID(), Codec.utf8())
                .build();
    }

    @Test
    @Timeout(30)
    void aFireFromAStaleRead_storesNothing_evenAfterItsTickWasAcked() throws InterruptedException {
        try (RedisDelayQueue<String> q = queue()) {
            ZsetSchedules<String> store = q.schedules();
            Entry e = store.put(Schedule.of("beat", Trigger.every(Duration.ofHours(1)), "tick"));
            long past = store.read().nowMillis() - 1_000;
            List<Tick> ticks = List.of(new Tick(ScheduleRunner.tickId("beat", past), past));

            // scheduler A and B both read e; A fires first, its tick is delivered and acked
            assertThat(store.fire("beat", e.version(), e.base(), ticks, past)).isTrue();
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            assertThat(d.id().value()).isEqualTo(ticks.get(0).id());
            assertThat(d.ack()).isTrue();

            // B fires from its read, now stale
            assertThat(store.fire("beat", e.version(), e.base(), ticks, past)).isFalse();
            assertThat(q.poll()).as("the tick stored a second time").isNull();
            assertThat(store.fire("beat", e.version() + 1, past, ticks, past)).isFalse();
            assertThat(q.stats().total()).isZero();
            Entry now = store.read().entries().get(0);
            assertThat(now.last()).isEqualTo(past);
            assertThat(now.base()).isEqualTo(past);
        }
    }

    @Test
    @Timeout(30)
    void putOfTheStoredSchedule_changesNothing_aChangedOne_withdrawsTheTickAhead() throws InterruptedException {
        try (RedisDelayQueue<String> q = queue()) {
            ZsetSchedules<String> store = q.schedules();
            Schedule<String> s = Schedule.of("job", Trigger.every(Duration.ofHours(1)), "tick");
            Entry first = store.put(s);
            long ahead = store.read().nowMillis() + 60_000;
            assertThat(store.fire(
                            "job",
                            first.version(),
                            first.base(),
                            List.of(new Tick(ScheduleRunner.tickId("job", ahead), ahead)),
                            ahead))
                    .isTrue();
            assertThat(q.stats().delayed()).isEqualTo(1);

            Entry same = store.put(s);
            assertThat(same.version()).isEqualTo(first.version());
            assertThat(same.last()).isEqualTo(ahead);
            assertThat(q.stats().delayed()).isEqualTo(1);

            Entry changed = store.put(Schedule.of("job", Trigger.every(Duration.ofHours(1)), "other"));
            assertThat(changed.version()).isEqualTo(first.version() + 1);
            assertThat(changed.last())
                    .as("the withdrawn tick is no longer the last")
                    .isEqualTo(ScheduleStore.NONE);
            assertThat(q.stats().total())
                    .as("the tick stored ahead is withdrawn")
                    .isZero();
            assertThat(store.load("job").payload()).isEqualTo("other");

            assertThat(store.remove("job")).isTrue();
            assertThat(store.read().entries()).isEmpty();
            assertThat(store.load("job")).isNull();
        }
    }

    @Test
    @Timeout(30)
    void aScheduleRemovedAndPutAgainInOneInstant_refusesAFireFromBefore() {
        try (RedisDelayQueue<String> q = queue()) {
            ZsetSchedules<String> store = q.schedules();
            Schedule<String> s = Schedule.of("job", Trigger.every(Duration.ofHours(1)), "tick");
            Entry before = store.put(s);
            assertThat(store.remove("job")).isTrue();
            Entry again = store.put(s);

            assertThat(again.version()).isNotEqualTo(before.version());
            long at = store.read().nowMillis() + 1_000;
            assertThat(store.fire(
                            "job",
                            before.version(),
                            again.base(),
                            List.of(new Tick(ScheduleRunner.tickId("job", at), at)),
                            at))
                    .isFalse();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    @Timeout(30)
    void aChangedPut_decidesTheTickNotYetDue_evenIfItWasCancelledByHand() {
        try (RedisDelayQueue<String> q = queue()) {
            ZsetSchedules<String> store = q.schedules();
            Entry e = store.put(Schedule.of("job", Trigger.every(Duration.ofHours(1)), "old"));
            long ahead = store.read().nowMillis() + 3_600_000;
            String id = ScheduleRunner.tickId("job", ahead);
            assertThat(store.fire("job", e.version(), e.base(), List.of(new Tick(id, ahead)), ahead))
                    .isTrue();
            assertThat(q.cancel(MessageId.of(id))).isTrue();

            Entry changed = store.put(Schedule.of("job", Trigger.every(Duration.ofHours(1)), "new"));
            assertThat(changed.last()).isEqualTo(ScheduleStore.NONE);
        }
    }
}
