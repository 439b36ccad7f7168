package io.queuekit.spring.boot;

import io.queuekit.MissedTicks;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a bean method at every tick of a schedule, once per tick however many instances of the
 * application run: unlike Spring's {@code @Scheduled}, which fires on every instance, and without a
 * leader or a lock.
 *
 * <pre>{@code
 * @QueueSchedule(name = "nightly-report", cron = "0 30 2 * * *", zone = "Europe/Berlin",
 *         missed = MissedTicks.SKIP)
 * void nightlyReport(Instant tick) { ... }
 *
 * @QueueSchedule(every = "5m")
 * void refresh() { ... }
 * }</pre>
 *
 * <p>Each tick is a message on a delay queue the starter provides ({@code queuekit.schedule-queue},
 * {@code <spring.application.name>-schedules} by default, on the application's transport), stored once by whichever
 * instance gets there first and handled by one of them. Handling is at least once: the method
 * returning acks the tick; throwing retries it after the queue's backoff, as for a
 * {@link QueueListener}, and dead-letters it after {@code max-attempts}; an instance that dies while
 * running it leaves it to be run again once its lease runs out. Make the work idempotent per tick.
 *
 * <p>The method takes no parameter, or one {@link java.time.Instant}: the tick it runs for (the
 * instant it was due, not the time it runs). Its return value is ignored. Exactly one of
 * {@link #cron()} and {@link #every()} is set. A bad expression, a duplicate name or any other
 * parameter fails start-up, naming the method. A schedule whose method is gone is removed from the
 * queue when an instance without it starts.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface QueueSchedule {

    /**
     * The schedule's name, unique in the application: 1 to 100 characters without whitespace or
     * {@code @}; a {@code ${...}} placeholder may be used. Empty: {@code <beanName>.<methodName>}.
     */
    String name() default "";

    /**
     * A cron expression, six fields from the second ({@code 0 30 2 * * *}) or five from the minute,
     * in {@link #zone()}; a {@code ${...}} placeholder may be used.
     */
    String cron() default "";

    /** The time zone of {@link #cron()}, such as {@code Europe/Berlin}; UTC by default. */
    String zone() default "";

    /**
     * A fixed rate ({@code 5m}, {@code 30s}, {@code PT1H}; at least 100 ms), ticking at whole
     * periods since the epoch, the same instants on every instance; a {@code ${...}} placeholder may
     * be used.
     */
    String every() default "";

    /** What happens to ticks missed while no instance ran: one late run, or none. */
    MissedTicks missed() default MissedTicks.FIRE_ONCE;
}
