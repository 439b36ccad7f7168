package io.queuekit;

import io.queuekit.internal.Cron;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * When a {@link Schedule} fires: a cron expression in a time zone, a fixed rate, or one instant.
 * Every instance computes the same ticks from the same trigger, since a trigger depends on nothing
 * but its own text: a fixed rate counts from a fixed anchor (the epoch unless given), never from
 * when a process started.
 *
 * <pre>{@code
 * Trigger nightly = Trigger.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin")); // 02:30 Berlin time
 * Trigger often = Trigger.every(Duration.ofMinutes(5));                       // :00, :05, :10, ...
 * Trigger once = Trigger.once(Instant.parse("2027-01-01T00:00:00Z"));
 * }</pre>
 *
 * <h2>Cron and daylight saving time</h2>
 * A cron expression has six fields (second, minute, hour, day of month, month, day of week, as
 * Spring's {@code CronExpression}) or five (Unix cron's, second 0), and names wall-clock times in
 * its zone. A wall-clock time that does not exist (inside the hour skipped when clocks go forward)
 * is skipped; one that occurs twice (when clocks go back) fires once, at its first occurrence.
 * The syntax, with what is refused: {@code docs/schedules.md}.
 *
 * <p>Immutable and thread-safe; two triggers are equal when their {@linkplain #toString() text}
 * is, which is also how a trigger is stored ({@link #parse(String)} reads it back).
 */
public final class Trigger {
    /** The shortest fixed rate accepted. */
    public static final Duration MIN_PERIOD = Duration.ofMillis(100);

    private final String text;
    private final Cron cron;
    private final ZoneId zone;
    private final long periodMillis;
    private final long anchorMillis;

    private Trigger(String text, Cron cron, ZoneId zone, long periodMillis, long anchorMillis) {
        this.text = text;
        this.cron = cron;
        this.zone = zone;
        this.periodMillis = periodMillis;
        this.anchorMillis = anchorMillis;
    }

    /**
     * The wall-clock times {@code expression} names, in {@code zone}.
     *
     * @throws IllegalArgumentException if the expression is malformed or uses what is not
     *     supported ({@code L}, {@code W}, {@code #}), naming the field
     * @throws NullPointerException if either argument is null
     */
    public static Trigger cron(String expression, ZoneId zone) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        Cron c = Cron.parse(expression);
        return new Trigger("cron " + zone.getId() + " " + c.expression(), c, zone, 0, 0);
    }

    /** As {@link #cron(String, ZoneId)} in UTC. */
    public static Trigger cron(String expression) {
        return cron(expression, ZoneOffset.UTC);
    }

    /**
     * Every {@code period}, at the epoch plus whole periods: {@code every(Duration.ofHours(1))}
     * fires on the hour (UTC), the same instants on every instance.
     *
     * @param period at least {@link #MIN_PERIOD}, in whole milliseconds
     * @throws IllegalArgumentException if the period is shorter than {@link #MIN_PERIOD}
     */
    public static Trigger every(Duration period) {
        return every(period, Instant.EPOCH);
    }

    /**
     * Every {@code period}, at {@code anchor} plus or minus whole periods.
     *
     * @param period at least {@link #MIN_PERIOD}, in whole milliseconds
     * @param anchor one of the ticks (it may lie in the past or the future; ticks before it count
     *     too)
     * @throws IllegalArgumentException if the period is shorter than {@link #MIN_PERIOD} or not a
     *     whole number of milliseconds
     */
    public static Trigger every(Duration period, Instant anchor) {
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(anchor, "anchor");
        if (period.compareTo(MIN_PERIOD) < 0) {
            throw new IllegalArgumentException("period must be at least " + MIN_PERIOD + ": " + period);
        }
        if (period.toNanosPart() % 1_000_000 != 0) {
            throw new IllegalArgumentException("period must be whole milliseconds: " + period);
        }
        long p = period.toMillis();
        long a = Math.floorMod(anchor.toEpochMilli(), p);
        return new Trigger("every " + period + " from " + Instant.ofEpochMilli(a), null, null, p, a);
    }

    /**
     * Once, at {@code at} (in whole milliseconds). A schedule put after its time never fires;
     * {@link DelayQueue#scheduleAt(Object, Instant)} stores a message due now for a past instant.
     */
    public static Trigger once(Instant at) {
        Objects.requireNonNull(at, "at");
        Instant ms = Instant.ofEpochMilli(at.toEpochMilli());
        return new Trigger("once " + ms, null, null, 0, ms.toEpochMilli());
    }

    /**
     * The trigger whose {@linkplain #toString() text} is {@code text}: {@code "cron <zone>
     * <expression>"}, {@code "every <ISO duration> from <instant>"} or {@code "once <instant>"}.
     *
     * @throws IllegalArgumentException if the text is none of these, saying why
     */
    public static Trigger parse(String text) {
        Objects.requireNonNull(text, "trigger");
        String t = text.strip();
        try {
            if (t.startsWith("cron ")) {
                String rest = t.substring(5).strip();
                int sp = rest.indexOf(' ');
                if (sp < 0) {
                    throw new IllegalArgumentException("a cron trigger is \"cron <zone> <expression>\": " + text);
                }
                return cron(rest.substring(sp + 1), ZoneId.of(rest.substring(0, sp)));
            }
            if (t.startsWith("every ")) {
                List<String> p = words(t.substring(6));
                if (p.size() == 1) {
                    return every(Duration.parse(p.get(0)));
                }
                if (p.size() == 3 && p.get(1).equals("from")) {
                    return every(Duration.parse(p.get(0)), Instant.parse(p.get(2)));
                }
                throw new IllegalArgumentException("a fixed rate is \"every <duration> [from <instant>]\": " + text);
            }
            if (t.startsWith("once ")) {
                return once(Instant.parse(t.substring(5).strip()));
            }
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a trigger: " + text + " (" + e.getMessage() + ")", e);
        } catch (DateTimeException e) { // an unknown zone
            throw new IllegalArgumentException("not a trigger: " + text + " (" + e.getMessage() + ")", e);
        }
        throw new IllegalArgumentException("a trigger begins with \"cron \", \"every \" or \"once \": " + text);
    }

    /**
     * The first tick strictly after {@code after}, or null if there is none (a one-off time
     * passed; a cron expression that matches nothing in the next ten years, such as 30 February).
     */
    public Instant next(Instant after) {
        Objects.requireNonNull(after, "after");
        if (cron != null) {
            return cron.next(after, zone);
        }
        long t = after.toEpochMilli();
        if (periodMillis == 0) {
            return anchorMillis > t ? Instant.ofEpochMilli(anchorMillis) : null;
        }
        long k = Math.floorDiv(t - anchorMillis, periodMillis) + 1;
        return Instant.ofEpochMilli(anchorMillis + k * periodMillis);
    }

    private static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        for (String w : s.strip().split(" ", -1)) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** The text that {@link #parse(String)} reads back, as the trigger is stored and shown. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Trigger t && t.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
