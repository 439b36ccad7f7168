package io.queuekit.internal;

import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import java.util.List;

/**
 * Where a transport keeps a delay queue's schedules, with the one atomic step that makes a tick
 * fire once: {@link #fire}. {@link ScheduleRunner} decides what to fire; the store only checks and
 * writes. Times are epoch milliseconds on the store's clock (the Redis server's, or the in-memory
 * queue's); {@link #NONE} stands for no tick.
 *
 * @param <T> the payload type
 */
public interface ScheduleStore<T> {
    /** No tick. */
    long NONE = Long.MIN_VALUE;

    /**
     * One stored schedule, as the runner needs it.
     *
     * @param name the schedule's name
     * @param trigger its trigger; null if the stored text is not one this version reads
     * @param missed its policy for missed ticks
     * @param version bumped by every {@link #put} that changes the schedule
     * @param base ticks go on after this instant: the latest tick stored, or when the schedule was
     *     put
     * @param last the latest tick stored, or {@link #NONE}
     * @param previous the tick stored before {@code last}, or {@link #NONE}
     */
    record Entry(String name, Trigger trigger, MissedTicks missed, long version, long base, long last, long previous) {}

    /** Every stored schedule, with the store's clock when it was read. */
    record Snapshot(long nowMillis, List<Entry> entries) {}

    /**
     * One message to store: under {@code id}, due at {@code dueMillis}.
     *
     * @param id {@code <name>@<tick>}
     * @param dueMillis the tick
     */
    record Tick(String id, long dueMillis) {}

    /** Every stored schedule and the store's clock. */
    Snapshot read();

    /**
     * Creates or replaces a schedule, atomically: one equal to the stored one (same trigger, policy,
     * payload and headers as stored) changes nothing; a different one gets the next version, its
     * tick stored ahead and not yet due is withdrawn, and its ticks go on after now. Returns the
     * entry as stored after.
     */
    Entry put(Schedule<T> schedule);

    /** Deletes a schedule and withdraws its tick stored ahead; whether one was stored. */
    boolean remove(String name);

    /** The schedule as stored, decoded, or null if none. */
    Schedule<T> load(String name);

    /**
     * Atomically: if {@code name} is stored at {@code version} with {@code base}, stores each of
     * {@code ticks} (each under its id unless that id is stored, the queue's chosen-id rule) and
     * moves the schedule's base to {@code newBase}, its last tick to the last of {@code ticks}
     * (if any). False, storing nothing, if another scheduler or a put got there first.
     */
    boolean fire(String name, long version, long base, List<Tick> ticks, long newBase);
}
