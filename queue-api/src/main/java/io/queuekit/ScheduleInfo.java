package io.queuekit;

import java.time.Instant;
import java.util.Objects;

/**
 * A stored {@link Schedule} with its runs, as {@link Scheduler#get(String)} reads them.
 *
 * @param schedule the schedule as stored (by whichever instance stored it last)
 * @param lastRun the latest tick whose message has fallen due; null if none yet
 * @param nextRun the next tick to come: stored already when a scheduler runs the schedule, else
 *     computed from the trigger; null if the trigger has no more ticks
 * @param <T> the payload type
 */
public record ScheduleInfo<T>(Schedule<T> schedule, Instant lastRun, Instant nextRun) {

    /** Refuses a null schedule; the runs may be null. */
    public ScheduleInfo {
        Objects.requireNonNull(schedule, "schedule");
    }
}
