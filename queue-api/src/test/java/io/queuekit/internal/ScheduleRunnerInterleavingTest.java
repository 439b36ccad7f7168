package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Schedulers of one schedule whose steps are interleaved at random on a virtual clock: between
 * one scheduler's read and its fire, time moves, other schedulers step, and messages fall due and
 * are handled (freeing their ids). Whatever the interleaving, each tick is stored once, and while
 * schedulers run every tick is stored; the one atomic step is the store's compare-and-set, here a
 * store kept in a map, the transports' stores being checked for it by their own tests.
 */
class ScheduleRunnerInterleavingTest {
    private static final long PERIOD = 60_000;
    private static final long START = 1_900_000_000_000L - 1_900_000_000_000L % PERIOD;

    @RepeatedTest(40)
    void randomInterleavings_storeEachTickOnce_andNoneGoMissing(RepetitionInfo run) {
        Random random = new Random(run.getCurrentRepetition());
        World w = new World(random);
        List<ScheduleRunner<String>> runners = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runners.add(new ScheduleRunner<>("test", "test-" + i, w, () -> {}, true));
        }
        w.others = runners;
        runners.get(0).put(Schedule.of("beat", Trigger.every(Duration.ofMillis(PERIOD)), "tick"));
        runners.forEach(ScheduleRunner::start);

        for (int step = 0; step < 300; step++) {
            w.advance(random.nextInt((int) (PERIOD * 3 / 2)));
            runners.get(random.nextInt(runners.size())).runDue();
        }
        w.advance(0);

        assertThat(w.storedTwice).as("ticks stored twice").isEmpty();
        List<Long> ticks = new ArrayList<>(w.handled.keySet());
        assertThat(ticks).hasSizeGreaterThan(100);
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1))
                    .as("tick after %s", ticks.get(i - 1))
                    .isEqualTo(PERIOD);
        }
        assertThat(w.handled.values()).as("handlings per tick").containsOnly(1);
    }

    /** A store in maps with a clock, and messages handled (their ids freed) once they fall due. */
    private static final class World implements ScheduleStore<String> {
        final Random random;
        List<ScheduleRunner<String>> others = List.of();
        long now = START;
        int depth;
        Schedule<String> schedule;
        long version;
        long base;
        long last = NONE;
        long previous = NONE;
        final Map<String, Long> waiting = new HashMap<>();
        final TreeMap<Long, Integer> handled = new TreeMap<>();
        final Set<String> storedTwice = new HashSet<>();
        final Set<String> everStored = new HashSet<>();

        World(Random random) {
            this.random = random;
        }

        void advance(long millis) {
            now += millis;
            waiting.entrySet().removeIf(e -> {
                if (e.getValue() <= now) {
                    String id = e.getKey();
                    handled.merge(
                            Instant.parse(id.substring(id.indexOf('@') + 1)).toEpochMilli(), 1, Integer::sum);
                    return true;
                }
                return false;
            });
        }

        @Override
        public Snapshot read() {
            Snapshot s = new Snapshot(
                    now,
                    schedule == null
                            ? List.of()
                            : List.of(new Entry(
                                    schedule.name(),
                                    schedule.trigger(),
                                    MissedTicks.FIRE_ONCE,
                                    version,
                                    base,
                                    last,
                                    previous)));
            // between this read and the reader's fire: time moves, others step
            if (depth < 2 && random.nextInt(3) == 0) {
                depth++;
                try {
                    advance(random.nextInt((int) PERIOD));
                    others.get(random.nextInt(others.size())).runDue();
                } finally {
                    depth--;
                }
            }
            return s;
        }

        @Override
        public Entry put(Schedule<String> s) {
            schedule = s;
            version++;
            base = now;
            return new Entry(s.name(), s.trigger(), s.missed(), version, base, last, previous);
        }

        @Override
        public boolean remove(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Schedule<String> load(String name) {
            return schedule;
        }

        @Override
        public boolean fire(String name, long v, long b, List<Tick> ticks, long newBase) {
            if (v != version || b != base) {
                return false;
            }
            for (Tick t : ticks) {
                if (!everStored.add(t.id())) {
                    storedTwice.add(t.id());
                }
                waiting.putIfAbsent(t.id(), t.dueMillis());
            }
            if (!ticks.isEmpty()) {
                previous = ticks.size() > 1 ? ticks.get(ticks.size() - 2).dueMillis() : last;
                last = ticks.get(ticks.size() - 1).dueMillis();
            }
            base = newBase;
            return true;
        }
    }
}
