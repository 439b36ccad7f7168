package io.queuekit;

import java.util.List;
import java.util.Optional;

/**
 * Runs the recurring {@link Schedule}s of one {@link DelayQueue}: at each tick it stores the
 * schedule's message on the queue, due at the tick. Get one with {@link DelayQueue#scheduler()}.
 *
 * <pre>{@code
 * Scheduler<String> scheduler = queue.scheduler();      // one per process is enough
 * scheduler.put(Schedule.of("nightly-report",
 *         Trigger.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin")), "report"));
 * }</pre>
 *
 * <h2>One message per tick, without a leader</h2>
 * Schedules are stored with the queue (on Redis, in the queue's keys), so every scheduler of the
 * queue, in every process, runs every schedule stored for it, including those another process
 * declared. Each tick is stored once however many schedulers run: a scheduler stores a tick only
 * if the schedule's last stored tick is still the one it read, in one atomic step with the
 * message, under the id {@code <name>@<tick>}. A scheduler stores the next tick as soon as the
 * previous one falls due, so the message waits on the queue ahead of its time and is delivered
 * on time by the queue even if the schedulers are slow; it is never delivered early. Handling is
 * the queue's: at least once.
 *
 * <h2>Missed ticks</h2>
 * A tick that fell due while no scheduler ran is missed; the first scheduler to start applies the
 * schedule's {@link MissedTicks} policy. A scheduler held up while running (a long pause) stores
 * the ticks it fell behind on, late, one message each.
 *
 * <h2>Changing and removing</h2>
 * {@link #put} of a schedule equal to the stored one changes nothing, so every instance may declare
 * its schedules at start. A different one replaces it for every scheduler at once: the tick stored
 * ahead under the old definition is withdrawn (unless already handed out) and ticks start over
 * from now. {@link #remove} deletes a schedule and withdraws its tick stored ahead.
 *
 * <h2>Lifecycle</h2>
 * A scheduler runs from its first {@link #put} or {@link #start()} until {@link #close()} or the
 * queue's close, on one daemon thread ({@code queuekit-<queue>-scheduler}), waking when a stored
 * tick falls due and every few seconds to see what other processes changed; on an in-memory queue
 * with a {@code ManualClock}, advancing the clock runs it instead. Thread-safe.
 *
 * @param <T> the payload type
 */
public interface Scheduler<T> extends AutoCloseable {

    /**
     * Stores {@code schedule} (creating it, or replacing the one of its name) and starts this
     * scheduler; the first tick is stored before this returns.
     *
     * @return the schedule as stored, with its runs
     * @throws NullPointerException if {@code schedule} is null
     * @throws IllegalArgumentException if its payload exceeds the queue's size limit
     * @throws SerializationException if the codec fails on its payload
     * @throws QueueClosedException if the scheduler or the queue is closed
     */
    ScheduleInfo<T> put(Schedule<T> schedule);

    /**
     * Deletes the schedule named {@code name} for every scheduler, withdrawing its tick stored
     * ahead unless already handed out.
     *
     * @return whether such a schedule was stored
     */
    boolean remove(String name);

    /** The schedule named {@code name} with its runs, if one is stored. */
    Optional<ScheduleInfo<T>> get(String name);

    /** Every schedule stored for the queue, by name. */
    List<ScheduleInfo<T>> list();

    /**
     * Starts running the queue's stored schedules without declaring one; {@link #put} starts it
     * too. Idempotent.
     *
     * @throws QueueClosedException if the scheduler or the queue is closed
     */
    void start();

    /**
     * Stops this scheduler; the schedules stay stored and other schedulers go on running them.
     * Idempotent.
     */
    @Override
    void close();
}
