package io.queuekit.spring.boot;

import io.queuekit.Headers;
import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code queuekit.schedules}, checked: its name, queue and trigger, the payload still
 * as text (the queue's codec reads it when the queues are built).
 *
 * @param name the key under {@code queuekit.schedules}
 * @param queue the delay queue it names
 * @param trigger its cron, every or at, as a trigger
 * @param missed what it does about missed ticks
 * @param payload the payload text; empty if unset
 * @param headers the headers of every message
 */
record PropertySchedule(
        String name, String queue, Trigger trigger, MissedTicks missed, String payload, Headers headers) {

    /** Checks everything that does not need the queues: the name, the trigger and the headers. */
    static PropertySchedule of(String name, ScheduleProperties s) {
        try {
            Schedule.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    "queuekit.schedules." + name + " is refused: " + e.getMessage(), "Rename the schedule.", e);
        }
        if (s.getQueue() == null || s.getQueue().isBlank()) {
            throw new QueueConfigurationException(
                    property(name, "queue") + " is not set; a schedule names the delay queue its messages go to",
                    "Set " + property(name, "queue") + " to a queue declared with type=delay.");
        }
        Headers headers;
        try {
            headers = Headers.of(s.getHeaders());
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    property(name, "headers") + " is refused: " + e.getMessage(),
                    "Correct " + property(name, "headers") + ".",
                    e);
        }
        return new PropertySchedule(
                name,
                s.getQueue().trim(),
                trigger(name, s),
                s.getMissed() != null ? s.getMissed() : MissedTicks.FIRE_ONCE,
                s.getPayload() != null ? s.getPayload() : "",
                headers);
    }

    private static Trigger trigger(String name, ScheduleProperties s) {
        List<String> set = new ArrayList<>();
        if (s.getCron() != null) {
            set.add(property(name, "cron"));
        }
        if (s.getEvery() != null) {
            set.add(property(name, "every"));
        }
        if (s.getAt() != null) {
            set.add(property(name, "at"));
        }
        if (set.size() != 1) {
            throw new QueueConfigurationException(
                    "queuekit.schedules." + name + (set.isEmpty() ? " sets none of cron, every and at" : " sets " + set)
                            + "; a schedule sets exactly one",
                    "Set one of " + property(name, "cron") + ", " + property(name, "every") + " and "
                            + property(name, "at") + ".");
        }
        if (s.getZone() != null && s.getCron() == null) {
            throw new QueueConfigurationException(
                    property(name, "zone") + " is set without " + property(name, "cron") + "; it is the cron's zone",
                    "Remove " + property(name, "zone") + ".");
        }
        if (s.getFrom() != null && s.getEvery() == null) {
            throw new QueueConfigurationException(
                    property(name, "from") + " is set without " + property(name, "every")
                            + "; it is the fixed rate's anchor",
                    "Remove " + property(name, "from") + ".");
        }
        if (s.getCron() != null) {
            ZoneId zone;
            try {
                zone = s.getZone() == null
                        ? ZoneOffset.UTC
                        : ZoneId.of(s.getZone().trim());
            } catch (DateTimeException e) {
                throw new QueueConfigurationException(
                        property(name, "zone") + "=" + s.getZone() + " is not a time zone: " + e.getMessage(),
                        "Set " + property(name, "zone")
                                + " to a region such as Europe/Berlin or an offset such as +01:00.",
                        e);
            }
            return refusedAs(name, "cron", s.getCron(), () -> Trigger.cron(s.getCron(), zone));
        }
        if (s.getEvery() != null) {
            return refusedAs(
                    name,
                    "every",
                    s.getEvery(),
                    () -> s.getFrom() == null ? Trigger.every(s.getEvery()) : Trigger.every(s.getEvery(), s.getFrom()));
        }
        return refusedAs(name, "at", s.getAt(), () -> Trigger.once(s.getAt()));
    }

    private static Trigger refusedAs(
            String name, String setting, Object value, java.util.function.Supplier<Trigger> trigger) {
        try {
            return trigger.get();
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    property(name, setting) + "=" + value + " is refused: " + e.getMessage(),
                    "Correct " + property(name, setting) + ".",
                    e);
        }
    }

    static String property(String name, String setting) {
        return "queuekit.schedules." + name + "." + setting;
    }

    String property(String setting) {
        return property(name, setting);
    }
}
