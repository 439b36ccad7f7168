package io.queuekit;

import java.time.Instant;
import java.util.Objects;

/**
 * A payload with the instant it falls due: one element of a batch for
 * {@link DelayQueue#scheduleEach(java.util.Collection)}, which stores many messages in one call,
 * each becoming ready at its own time (where {@link DelayQueue#scheduleAllAt} gives a whole batch
 * one time). An instant in the past means now; one more than {@link DelayQueue#MAX_DELAY} ahead
 * is refused by the queue, not here, since only the queue knows its clock.
 *
 * <pre>{@code
 * reminders.scheduleEach(List.of(
 *         Scheduled.at(firstReminder, Instant.parse("2026-12-01T09:00:00Z")),
 *         Scheduled.at(secondReminder, Instant.parse("2026-12-02T09:00:00Z"))));
 * }</pre>
 *
 * <p>Immutable, and thread-safe if its payload is; compares by value.
 *
 * @param payload the message; not null
 * @param dueAt when the message becomes ready; not null
 * @param headers the message's headers; not null, empty if it has none
 * @param <T> the payload type
 */
public record Scheduled<T>(T payload, Instant dueAt, Headers headers) {

    /**
     * Refuses nulls.
     *
     * @throws NullPointerException if {@code payload}, {@code dueAt} or {@code headers} is null,
     *     naming which
     */
    public Scheduled {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(headers, "headers");
    }

    /** {@code payload}, due at {@code dueAt}, without headers. */
    public Scheduled(T payload, Instant dueAt) {
        this(payload, dueAt, Headers.empty());
    }

    /** This message with {@code headers} instead of its own. */
    public Scheduled<T> withHeaders(Headers headers) {
        return new Scheduled<>(payload, dueAt, headers);
    }

    /**
     * {@code payload}, due at {@code dueAt}.
     *
     * @throws NullPointerException if {@code payload} or {@code dueAt} is null, naming which
     */
    public static <T> Scheduled<T> at(T payload, Instant dueAt) {
        return new Scheduled<>(payload, dueAt);
    }
}
