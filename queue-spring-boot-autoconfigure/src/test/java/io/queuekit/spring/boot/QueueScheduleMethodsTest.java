package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.DelayQueue;
import io.queuekit.MissedTicks;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@link QueueSchedule} methods: run once per tick across instances, retried when they fail. */
@RedisServerTest
@Timeout(60)
class QueueScheduleMethodsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final RedisServer server;

    QueueScheduleMethodsTest(RedisServer server) {
        this.server = server;
    }

    /** Runs of every instance's beat, by tick: shared, as the instances share Redis. */
    static final Map<Instant, AtomicInteger> BEATS = new ConcurrentHashMap<>();

    static class Beat {
        @QueueSchedule(name = "beat", every = "300ms")
        void beat(Instant tick) {
            BEATS.computeIfAbsent(tick, t -> new AtomicInteger()).incrementAndGet();
        }
    }

    @Test
    void twoInstancesOnOneRedis_runTheMethodOncePerTick() {
        BEATS.clear();
        ApplicationContextRunner instance = Contexts.on(server)
                .withBean("beats", Beat.class)
                .withPropertyValues("queuekit.key-prefix=" + Contexts.unique("beats"));
        instance.run(first -> instance.run(second -> {
            assertThat(first).hasNotFailed();
            assertThat(second).hasNotFailed();
            // ten ticks in a row from the first, none missing
            await().atMost(WAIT).until(() -> consecutive(BEATS.keySet()) >= 10);
        }));

        assertThat(BEATS)
                .allSatisfy((tick, runs) ->
                        assertThat(runs.get()).as("runs of the tick %s", tick).isEqualTo(1));
        assertThat(BEATS.keySet())
                .allSatisfy(tick -> assertThat(tick.toEpochMilli() % 300).isZero());
    }

    /** How many ticks 300 ms apart, from the earliest, {@code ticks} holds without a gap. */
    private static int consecutive(java.util.Set<Instant> ticks) {
        List<Instant> sorted = new ArrayList<>(ticks);
        sorted.sort(null);
        int n = 0;
        while (n < sorted.size() && sorted.get(n).equals(sorted.get(0).plusMillis(300L * n))) {
            n++;
        }
        return n;
    }

    static class Old {
        @QueueSchedule(name = "old", every = "1h")
        void old() {}
    }

    @Test
    void aScheduleNoMethodDeclaresAnyMore_isRemovedWhenAnInstanceWithoutItStarts() {
        String prefix = "queuekit.key-prefix=" + Contexts.unique("removed");
        Contexts.on(server)
                .withBean("beats", Beat.class)
                .withBean("old", Old.class)
                .withPropertyValues(prefix)
                .run(context ->
                        assertThat(names(context.getBean("queuekit-schedules"))).containsExactly("beat", "old"));
        Contexts.on(server)
                .withBean("beats", Beat.class)
                .withPropertyValues(prefix)
                .run(context ->
                        assertThat(names(context.getBean("queuekit-schedules"))).containsExactly("beat"));
    }

    private static List<String> names(Object queue) {
        try (var scheduler = ((DelayQueue<?>) queue).scheduler()) {
            return scheduler.list().stream()
                    .map(i -> i.schedule().name())
                    .sorted()
                    .toList();
        }
    }

    /** Fails the first run of each tick. */
    static class Flaky {
        final Map<Instant, AtomicInteger> runs = new ConcurrentHashMap<>();

        @QueueSchedule(every = "200ms")
        void run(Instant tick) {
            if (runs.computeIfAbsent(tick, t -> new AtomicInteger()).incrementAndGet() == 1) {
                throw new IllegalStateException("first run of " + tick);
            }
        }
    }

    @Test
    void aMethodThatThrows_runsAgainForTheSameTick_afterTheScheduleQueuesBackoff() {
        String queue = Contexts.unique("jobs");
        Contexts.on(server)
                .withBean("flaky", Flaky.class)
                .withPropertyValues(
                        "queuekit.schedule-queue=" + queue,
                        "queuekit.queues." + queue + ".type=delay",
                        "queuekit.queues." + queue + ".retry.initial-backoff=50ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Flaky flaky = context.getBean(Flaky.class);
                    await().atMost(WAIT)
                            .until(() -> flaky.runs.values().stream().anyMatch(n -> n.get() == 2));
                    // the schedule's default name, as its message ids show
                    @SuppressWarnings("unchecked")
                    DelayQueue<String> jobs = (DelayQueue<String>) context.getBean(queue);
                    assertThat(jobs.scheduler().get("flaky.run")).isPresent();
                });
    }

    static class Late {
        final List<Instant> ticks = new CopyOnWriteArrayList<>();

        @QueueSchedule(every = "200ms")
        void run(Instant tick) {
            ticks.add(tick);
        }
    }

    @Test
    void schedules_startWhileRedisIsDown_andRunOnceItIsUp() {
        try (RedisServer late = RedisServer.builder().requireProcessControl().start()) {
            late.stop();
            Contexts.on(late)
                    .withBean("late", Late.class)
                    .withPropertyValues(
                            "spring.data.redis.timeout=500ms",
                            "spring.data.redis.connect-timeout=500ms",
                            "queuekit.key-prefix=" + Contexts.unique("late"))
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        late.restart();
                        Late method = context.getBean(Late.class);
                        await().atMost(WAIT).until(() -> method.ticks.size() >= 2);
                    });
        }
    }

    /** Records its ticks, on an in-memory queue whose clock the test moves. */
    static class Nightly {
        final List<Instant> ticks = new CopyOnWriteArrayList<>();

        @QueueSchedule(name = "nightly", cron = "0 30 2 * * *", zone = "Europe/Berlin", missed = MissedTicks.SKIP)
        void run(Instant tick) {
            ticks.add(tick);
        }
    }

    @Test
    void inMemory_aCronMethod_runsWhenTheTestAdvancesTheClock() {
        Contexts.on(server)
                .withBean("nightly", Nightly.class)
                .withPropertyValues("queuekit.transport=in-memory", "queuekit.in-memory.clock=manual")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ManualClock clock = context.getBean(ManualClock.class);
                    Nightly nightly = context.getBean(Nightly.class);

                    clock.advance(Duration.ofDays(2));
                    await().atMost(WAIT).until(() -> nightly.ticks.size() == 2);
                    // 02:30 in Berlin is 01:30 UTC in winter
                    assertThat(nightly.ticks)
                            .containsExactly(
                                    Instant.parse("2030-01-01T01:30:00Z"), Instant.parse("2030-01-02T01:30:00Z"));
                });
    }
}
