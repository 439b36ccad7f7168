package io.queuekit.internal;

import io.queuekit.DelayQueue;
import io.queuekit.Scheduled;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one rule for how far ahead a message may wait, {@link DelayQueue#MAX_DELAY}, on every
 * transport and for every way of setting a delay: {@code schedule} delays, {@code scheduleAt} and
 * {@code scheduleEach} due times, and {@code Delivery.retry} delays. A delay is 0 to {@code MAX_DELAY}; a due time is at
 * most {@code MAX_DELAY} after the transport's now (an earlier one, however far back, means now).
 * Anything else is refused with {@link IllegalArgumentException} before anything is stored or
 * settled; a null with {@link NullPointerException}.
 */
public final class Delays {
    private Delays() {}

    /** A {@code schedule} delay. */
    public static Duration delay(Duration delay) {
        return check(delay, "delay");
    }

    /** A {@code Delivery.retry} delay, checked before anything is settled, so a refused retry leaves the delivery in flight. */
    public static Duration retryDelay(Duration delay) {
        return check(delay, "retry delay");
    }

    /**
     * A {@code scheduleAt} due time, no later than {@code now} plus {@code MAX_DELAY}.
     *
     * @param now the transport's now, as this JVM reads it
     */
    public static Instant dueAt(Instant dueAt, Instant now) {
        Objects.requireNonNull(dueAt, "dueAt");
        Instant limit = now.plus(DelayQueue.MAX_DELAY);
        if (dueAt.isAfter(limit)) {
            throw new IllegalArgumentException(tooFar(dueAt, limit));
        }
        return dueAt;
    }

    /**
     * The due times of a {@code scheduleEach} batch, in its order, each checked as
     * {@link #dueAt}; a refusal names the index of the message.
     *
     * @param now the transport's now, as this JVM reads it
     */
    public static List<Instant> dueTimes(List<? extends Scheduled<?>> messages, Instant now) {
        Instant limit = now.plus(DelayQueue.MAX_DELAY);
        List<Instant> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Instant dueAt = messages.get(i).dueAt();
            if (dueAt.isAfter(limit)) {
                throw new IllegalArgumentException("message at index " + i + ": " + tooFar(dueAt, limit));
            }
            out.add(dueAt);
        }
        return out;
    }

    private static String tooFar(Instant dueAt, Instant limit) {
        return "due time must be at most " + DelayQueue.MAX_DELAY.toDays()
                + " d (DelayQueue.MAX_DELAY) from now, i.e. not after " + limit + ": " + dueAt;
    }

    private static Duration check(Duration delay, String what) {
        Checks.notNegative(delay, what);
        if (delay.compareTo(DelayQueue.MAX_DELAY) > 0) {
            throw new IllegalArgumentException(
                    what + " must be at most " + DelayQueue.MAX_DELAY.toDays() + " d (DelayQueue.MAX_DELAY): " + delay);
        }
        return delay;
    }
}
