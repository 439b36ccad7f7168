package io.queuekit;

import java.util.Objects;

/**
 * A recurring (or one-off) message: at every tick of its {@link Trigger}, a {@link Scheduler}
 * stores {@link #payload()} with {@link #headers()} on its queue, due at the tick, under the id
 * {@code <name>@<tick>} (for example {@code nightly-report@2026-12-06T01:30:00Z}). However many
 * schedulers run the schedule, each tick is stored once.
 *
 * <pre>{@code
 * Schedule<String> nightly = Schedule.of("nightly-report",
 *                 Trigger.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin")), "report")
 *         .whenMissed(MissedTicks.SKIP);
 * }</pre>
 *
 * <p>Immutable, and thread-safe if its payload is; compares by value.
 *
 * @param <T> the payload type
 */
public final class Schedule<T> {
    /** Longest schedule name accepted. */
    public static final int MAX_NAME_LENGTH = 100;

    private final String name;
    private final Trigger trigger;
    private final T payload;
    private final Headers headers;
    private final MissedTicks missed;

    private Schedule(String name, Trigger trigger, T payload, Headers headers, MissedTicks missed) {
        this.name = checkName(name);
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        this.payload = Objects.requireNonNull(payload, "payload");
        this.headers = Objects.requireNonNull(headers, "headers");
        this.missed = Objects.requireNonNull(missed, "missed ticks");
    }

    /**
     * A schedule storing {@code payload} at every tick of {@code trigger}, without headers,
     * {@linkplain MissedTicks#FIRE_ONCE firing once} for ticks missed while no scheduler ran.
     *
     * @param name 1 to {@value #MAX_NAME_LENGTH} characters, no whitespace, control characters
     *     or {@code @}; unique within its queue
     * @throws IllegalArgumentException if the name is not accepted, saying why
     * @throws NullPointerException if any argument is null
     */
    public static <T> Schedule<T> of(String name, Trigger trigger, T payload) {
        return new Schedule<>(name, trigger, payload, Headers.empty(), MissedTicks.FIRE_ONCE);
    }

    /** This schedule with {@code headers} on every message it stores. */
    public Schedule<T> withHeaders(Headers headers) {
        return new Schedule<>(name, trigger, payload, headers, missed);
    }

    /** This schedule with {@code missed} for ticks missed while no scheduler ran. */
    public Schedule<T> whenMissed(MissedTicks missed) {
        return new Schedule<>(name, trigger, payload, headers, missed);
    }

    /** The name, unique within the queue. */
    public String name() {
        return name;
    }

    /** When it fires. */
    public Trigger trigger() {
        return trigger;
    }

    /** What every tick stores. */
    public T payload() {
        return payload;
    }

    /** The headers every tick's message carries; empty if none. */
    public Headers headers() {
        return headers;
    }

    /** What it does about ticks missed while no scheduler ran. */
    public MissedTicks missed() {
        return missed;
    }

    /**
     * Checks a schedule name.
     *
     * @return the name
     * @throws IllegalArgumentException if it is empty, longer than {@value #MAX_NAME_LENGTH}, or
     *     holds whitespace, a control character or {@code @}
     */
    public static String checkName(String name) {
        Objects.requireNonNull(name, "schedule name");
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "schedule name must be 1 to " + MAX_NAME_LENGTH + " characters, was " + name.length());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || Character.isWhitespace(c) || c == '@') {
                throw new IllegalArgumentException(
                        "schedule name must not hold whitespace, control characters or '@': \""
                                + name.replaceAll("\\p{Cntrl}", "?") + '"');
            }
        }
        return name;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Schedule)) {
            return false;
        }
        Schedule<?> s = (Schedule<?>) o;
        return name.equals(s.name)
                && trigger.equals(s.trigger)
                && payload.equals(s.payload)
                && headers.equals(s.headers)
                && missed == s.missed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, trigger, payload, headers, missed);
    }

    @Override
    public String toString() {
        return "Schedule[" + name + ", " + trigger + ", missed " + missed + "]";
    }
}
