package io.queuekit.tck;

import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MissedTicks;
import io.queuekit.QueueClosedException;
import io.queuekit.Schedule;
import io.queuekit.ScheduleInfo;
import io.queuekit.Scheduler;
import io.queuekit.Trigger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The contract of recurring schedules ({@link DelayQueue#scheduler()}): however many schedulers
 * run a schedule, each tick is stored once, none is delivered early and none goes missing; ticks
 * missed while no scheduler ran follow the schedule's policy; a change or removal by one scheduler
 * holds for all. On a server, the schedulers run on separate queue objects of one queue, as in
 * separate processes; in memory, on one queue object.
 */
interface SchedulesContract extends DelayQueueContract {

    /** The period of the fixed-rate schedules: a minute on a virtual clock, short on real time. */
    default Duration period() {
        return time().isVirtual() ? Duration.ofMinutes(1) : Duration.ofMillis(300);
    }

    /**
     * {@code n} delay queue objects on one queue (the first made for this test): separate objects
     * where queues of one name share their messages, else the one object {@code n} times.
     */
    default List<DelayQueue<String>> objectsOfOneQueue(int n) throws InterruptedException {
        DelayQueue<String> first = newDelayQueue();
        DelayQueue<String> second = (DelayQueue<String>) newQueue(first.name(), config());
        first.send("probe");
        boolean shared = second.stats().ready() == 1;
        next(first).ack();
        List<DelayQueue<String>> out = new ArrayList<>();
        out.add(first);
        for (int i = 1; i < n; i++) {
            out.add(!shared ? first : i == 1 ? second : (DelayQueue<String>) newQueue(first.name(), config()));
        }
        return out;
    }

    /** The tick a schedule's message was stored for, read from its id ({@code <name>@<tick>}). */
    static Instant tickOf(Delivery<?> d) {
        String id = d.id().value();
        return Instant.parse(id.substring(id.lastIndexOf('@') + 1));
    }

    /**
     * Receives {@code count} ticks of the schedule {@code name} (a fixed rate of {@link #period()})
     * from {@code q}, acking each, and checks that none is handed out before its tick: on a virtual
     * clock exactly, by looking 1 ms before each tick; on real time by the transport's clock.
     */
    default List<Instant> receiveTicks(DelayQueue<String> q, String name, int count) throws InterruptedException {
        List<Instant> ticks = new ArrayList<>();
        Instant end = time().now().plus(period().multipliedBy(count + 10L));
        while (ticks.size() < count && time().now().isBefore(end)) {
            if (time().isVirtual()) {
                Instant now = time().now();
                Duration gap =
                        Duration.between(now, Trigger.every(period()).next(now)).minusMillis(1);
                if (!gap.isNegative() && !gap.isZero()) {
                    time().advance(gap);
                }
                drain(q, name, ticks);
                time().advance(Duration.ofMillis(1));
                drain(q, name, ticks);
            } else {
                Delivery<String> d = q.poll(period().toMillis() * 4, MILLISECONDS);
                if (d != null) {
                    ticks.add(checkedTick(d, name));
                }
            }
        }
        return ticks;
    }

    /** Takes and acks what {@code q} has ready now, adding the ticks to {@code ticks}. */
    private void drain(DelayQueue<String> q, String name, List<Instant> ticks) {
        for (Delivery<String> d = q.poll(); d != null; d = q.poll()) {
            ticks.add(checkedTick(d, name));
        }
    }

    /** The tick of {@code d}, checked to be one of {@code name}'s and not handed out early; acks it. */
    private Instant checkedTick(Delivery<String> d, String name) {
        Instant received = time().now();
        assertThat(d.id().value()).startsWith(name + "@");
        Instant tick = tickOf(d);
        assertThat(received).as("tick %s handed out early", tick).isAfterOrEqualTo(tick);
        d.ack();
        return tick;
    }

    @Test
    default void threeSchedulers_storeEveryTickOnce_noneEarly_noneMissing() throws Exception {
        List<DelayQueue<String>> qs = objectsOfOneQueue(3);
        Schedule<String> s = Schedule.of("every", Trigger.every(period()), "tick");
        for (DelayQueue<String> q : qs) {
            closeLater(q.scheduler()).put(s);
        }

        List<Instant> ticks = receiveTicks(qs.get(0), "every", 12);
        // and nothing more than one per tick arrives while two more periods pass
        Instant quietUntil =
                ticks.isEmpty() ? time().now() : ticks.get(ticks.size() - 1).plus(period().multipliedBy(2));
        while (time().now().isBefore(quietUntil)) {
            Delivery<String> d =
                    time().isVirtual() ? qs.get(1).poll() : qs.get(1).poll(50, MILLISECONDS);
            if (d != null) {
                ticks.add(tickOf(d));
                d.ack();
            } else if (time().isVirtual()) {
                time().advance(period().dividedBy(3));
            }
        }

        assertThat(ticks).as("ticks received").hasSizeGreaterThanOrEqualTo(12).doesNotHaveDuplicates();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(Duration.between(ticks.get(i - 1), ticks.get(i)))
                    .as("from tick %s to the next, %s", ticks.get(i - 1), ticks.get(i))
                    .isEqualTo(period());
        }
    }

    @Test
    default void put_ofTheStoredSchedule_changesNothing() throws Exception {
        List<DelayQueue<String>> qs = objectsOfOneQueue(2);
        Schedule<String> s = Schedule.of("hourly", Trigger.every(Duration.ofHours(1)), "tick");
        Instant before = time().now();
        ScheduleInfo<String> first = closeLater(qs.get(0).scheduler()).put(s);
        ScheduleInfo<String> again = closeLater(qs.get(1).scheduler()).put(s);

        assertThat(again).isEqualTo(first);
        assertThat(first.nextRun()).isEqualTo(s.trigger().next(before));
        assertThat(qs.get(0).stats().delayed()).as("ticks stored ahead").isEqualTo(1);
    }

    @Test
    default void put_ofAChangedSchedule_holdsForEveryScheduler() throws Exception {
        List<DelayQueue<String>> qs = objectsOfOneQueue(2);
        Scheduler<String> one = closeLater(qs.get(0).scheduler());
        Scheduler<String> two = closeLater(qs.get(1).scheduler());
        one.put(Schedule.of("job", Trigger.every(Duration.ofHours(5)), "old"));

        Schedule<String> changed = Schedule.of("job", Trigger.every(period()), "new");
        ScheduleInfo<String> info = two.put(changed);

        assertThat(one.get("job")).map(ScheduleInfo::schedule).contains(changed);
        assertThat(info.nextRun()).isBefore(time().now().plus(period()).plusMillis(1));
        assertThat(qs.get(0).stats().delayed())
                .as("the old tick withdrawn, the new one stored")
                .isEqualTo(1);
        List<String> payloads = new ArrayList<>();
        List<Instant> ticks = new ArrayList<>();
        while (ticks.size() < 3) {
            Delivery<String> d = time().isVirtual() ? qs.get(0).poll() : next(qs.get(0));
            if (d == null) {
                time().advance(period());
                continue;
            }
            payloads.add(d.payload());
            ticks.add(tickOf(d));
            d.ack();
        }
        assertThat(payloads).containsOnly("new");
        assertThat(ticks).doesNotHaveDuplicates();
    }

    @Test
    default void remove_withdrawsTheTickStoredAhead_andStopsTheSchedule() throws Exception {
        List<DelayQueue<String>> qs = objectsOfOneQueue(2);
        Scheduler<String> one = closeLater(qs.get(0).scheduler());
        Scheduler<String> two = closeLater(qs.get(1).scheduler());
        one.put(Schedule.of("gone", Trigger.every(Duration.ofHours(1)), "tick"));
        two.start();

        assertThat(two.remove("gone")).isTrue();

        assertThat(two.remove("gone")).isFalse();
        assertThat(one.get("gone")).isEmpty();
        assertThat(one.list()).isEmpty();
        if (time().isVirtual()) {
            time().advance(Duration.ofHours(3));
        }
        assertThat(qs.get(0).poll())
                .as("a message after the schedule was removed")
                .isNull();
        assertThat(qs.get(0).stats().total()).isZero();
    }

    @Test
    default void missedTicks_fireOnce_storesOneMessageForAllMissed() throws Exception {
        assertThat(ticksDueAfterDowntime(MissedTicks.FIRE_ONCE)).hasSize(2);
    }

    @Test
    default void missedTicks_skip_storesNoneForMissed() throws Exception {
        assertThat(ticksDueAfterDowntime(MissedTicks.SKIP)).hasSize(1);
    }

    /**
     * Runs a schedule, stops every scheduler for several periods, starts one again; the ticks
     * handed out that fell due before it started (the one stored ahead before the stop, and what
     * the policy adds for those missed).
     */
    private List<Instant> ticksDueAfterDowntime(MissedTicks policy) throws Exception {
        DelayQueue<String> q = newDelayQueue();
        // on real time a period long enough that put and close end well before the first tick
        Duration period = time().isVirtual() ? period() : Duration.ofMillis(600);
        Scheduler<String> before = q.scheduler();
        toMidPeriod(period);
        before.put(Schedule.of("nightly", Trigger.every(period), "tick").whenMissed(policy));
        before.close();
        time().advance(period.multipliedBy(3));
        toMidPeriod(period);

        Instant restart = time().now();
        closeLater(q.scheduler()).start();
        TreeMap<Instant, Integer> byTick = new TreeMap<>();
        Instant end = restart.plus(period.multipliedBy(2));
        while (time().now().isBefore(end)) {
            Delivery<String> d = time().isVirtual() ? q.poll() : q.poll(50, MILLISECONDS);
            if (d != null) {
                byTick.merge(tickOf(d), 1, Integer::sum);
                d.ack();
            } else if (time().isVirtual()) {
                time().advance(period.dividedBy(4));
            }
        }
        assertThat(byTick.values()).as("messages per tick").containsOnly(1);
        assertThat(byTick.lastKey()).as("ticks go on after the restart").isAfter(restart);
        return new ArrayList<>(byTick.headMap(restart).keySet());
    }

    @Test
    default void get_readsTheLastAndNextRun() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Scheduler<String> s = closeLater(q.scheduler());
        Duration period = time().isVirtual() ? period() : Duration.ofSeconds(1);
        Trigger trigger = Trigger.every(period);
        Instant before = time().now();
        ScheduleInfo<String> put = s.put(Schedule.of("runs", trigger, "tick"));
        Instant first = trigger.next(before);
        // on real time the first tick may fall due while put runs: then it is the last run
        assertThat(put.nextRun()).isIn(first, trigger.next(first));
        assertThat(put.lastRun()).isEqualTo(put.nextRun().equals(first) ? null : first);

        time().advance(period);
        Delivery<String> d = next(q);
        Instant tick = tickOf(d);
        d.ack();
        Optional<ScheduleInfo<String>> after = s.get("runs");
        assertThat(after).isPresent();
        assertThat(after.get().lastRun()).isAfterOrEqualTo(tick);
        assertThat(after.get().nextRun()).isAfter(after.get().lastRun());
    }

    @Test
    default void once_firesOnce() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Scheduler<String> s = closeLater(q.scheduler());
        Instant at = time().now().plus(period());
        s.put(Schedule.of("once", Trigger.once(at), "tick"));

        time().advance(period());
        Delivery<String> d = next(q);
        assertThat(tickOf(d)).isEqualTo(Instant.ofEpochMilli(at.toEpochMilli()));
        d.ack();
        time().advance(period().multipliedBy(2));
        assertNothingDelivered(q);
        assertThat(s.get("once")).map(ScheduleInfo::nextRun).isEmpty();
    }

    @Test
    default void badInput_isRefused_andClosedSchedulersRefuse() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Scheduler<String> s = q.scheduler();
        assertThatThrownBy(() -> s.put(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.get("bad name")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.of("a@b", Trigger.every(period()), "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'@'");
        assertThat(s.list()).isEmpty();

        s.close();
        assertThatThrownBy(() -> s.put(Schedule.of("late", Trigger.every(period()), "x")))
                .isInstanceOf(QueueClosedException.class);
        q.close();
        assertThatThrownBy(q::scheduler).isInstanceOf(QueueClosedException.class);
    }

    /**
     * Lets time pass to the middle between two ticks of {@code every(period)}, so that a step taken
     * now and a tick are far apart on real time too.
     */
    private void toMidPeriod(Duration period) throws InterruptedException {
        long p = period.toMillis();
        long phase = Math.floorMod(time().now().toEpochMilli(), p);
        long wait = Math.floorMod(p / 2 - phase, p);
        if (wait > 0) {
            time().advance(Duration.ofMillis(wait));
        }
    }
}
