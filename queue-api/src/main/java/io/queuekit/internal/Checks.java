package io.queuekit.internal;

import io.queuekit.MessageId;
import io.queuekit.Scheduled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** Argument checks shared by transports, so that every transport refuses the same input the same way. */
public final class Checks {
    private Checks() {}

    /** A copy of the payloads, refusing a null collection or any null element (naming its index). */
    public static <T> List<T> payloads(Collection<? extends T> payloads) {
        Objects.requireNonNull(payloads, "payloads");
        List<T> copy = new ArrayList<>(payloads.size());
        int i = 0;
        for (T p : payloads) {
            if (p == null) {
                throw new NullPointerException("payload at index " + i + " is null");
            }
            copy.add(p);
            i++;
        }
        return copy;
    }

    /**
     * A copy of a {@code scheduleEach} batch, refusing a null collection or any null element
     * (naming its index).
     */
    public static <T> List<Scheduled<? extends T>> scheduled(Collection<? extends Scheduled<? extends T>> messages) {
        Objects.requireNonNull(messages, "messages");
        List<Scheduled<? extends T>> copy = new ArrayList<>(messages.size());
        int i = 0;
        for (Scheduled<? extends T> m : messages) {
            if (m == null) {
                throw new NullPointerException("message at index " + i + " is null");
            }
            copy.add(m);
            i++;
        }
        return copy;
    }

    /** The timeout in nanoseconds, refusing a negative one or a null unit. */
    public static long timeoutNanos(long timeout, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout + " " + unit);
        }
        return unit.toNanos(timeout);
    }

    /** Refuses a batch size below one. */
    public static int batchSize(int maxMessages) {
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages must be positive: " + maxMessages);
        }
        return maxMessages;
    }

    /** Refuses a null or negative duration; {@code what} names it in the message. */
    public static Duration notNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative: " + d);
        }
        return d;
    }

    /** Refuses a null, zero or negative duration; {@code what} names it in the message. */
    public static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
        return d;
    }

    /**
     * Refuses a null duration or one outside {@code [min, max]}; {@code what} names it in the
     * message. Compares durations, so even {@code Duration.ofSeconds(Long.MAX_VALUE)} gets this
     * message rather than an overflow.
     */
    public static Duration between(Duration d, Duration min, Duration max, String what) {
        Objects.requireNonNull(d, what);
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(what + " must be " + human(min) + " to " + human(max) + ": " + d);
        }
        return d;
    }

    private static String human(Duration d) {
        if (d.isZero()) {
            return "0";
        }
        if (d.toDays() > 0 && d.equals(Duration.ofDays(d.toDays()))) {
            return d.toDays() + " d";
        }
        if (d.toHours() > 0 && d.equals(Duration.ofHours(d.toHours()))) {
            return d.toHours() + " h";
        }
        if (d.toSeconds() > 0 && d.equals(Duration.ofSeconds(d.toSeconds()))) {
            return d.toSeconds() + " s";
        }
        return d.toMillis() + " ms";
    }

    /**
     * Refuses a caller-chosen id in the namespace of generated ids (one that begins with
     * {@link MessageId#GENERATED_MARK}), so that the two never meet.
     */
    public static MessageId callerId(MessageId id) {
        Objects.requireNonNull(id, "id");
        if (id.isGenerated()) {
            throw new IllegalArgumentException("message id '" + id + "' begins with '" + MessageId.GENERATED_MARK
                    + "', which marks the ids a queue generates; choose an id that does not");
        }
        return id;
    }

    /** Refuses a lease extension outside a visibility timeout's range, 10 ms to 12 h. */
    public static Duration leaseDuration(Duration d) {
        return between(d, Duration.ofMillis(10), Duration.ofHours(12), "lease duration");
    }

    /** Refuses a value outside {@code [min, max]}; {@code what} names it in the message. */
    public static int inRange(int value, int min, int max, String what) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be " + min + " to " + max + ": " + value);
        }
        return value;
    }

    /**
     * Refuses a queue or channel name that is empty, longer than 100 characters, or holds anything
     * but letters, digits and {@code . _ - :}. Braces in particular would break Redis Cluster hash
     * tags.
     */
    public static String name(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.length() > 100) {
            throw new IllegalArgumentException("name must be 1 to 100 characters, was " + name.length());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == '-'
                    || c == ':';
            if (!ok) {
                throw new IllegalArgumentException("name may hold only letters, digits and . _ - : but "
                        + "has '" + (Character.isISOControl(c) ? "\\u" + Integer.toHexString(c) : c)
                        + "' at index " + i + ": " + name.replaceAll("\\p{Cntrl}", "?"));
            }
        }
        return name;
    }
}
