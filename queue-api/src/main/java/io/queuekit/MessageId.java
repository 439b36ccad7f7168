package io.queuekit;

import java.util.Objects;
import java.util.UUID;

/**
 * Identity of one message within one queue. A transport assigns a fresh id on every
 * {@code send}; a caller may choose one for {@link DelayQueue#schedule(MessageId, Object,
 * java.time.Duration)} to make scheduling idempotent.
 *
 * <p>An id is 1 to {@value #MAX_LENGTH} characters with no control characters and no whitespace.
 * Ids compare by value and are immutable and thread-safe.
 *
 * <h2>Generated and chosen ids never meet</h2>
 * Every id a queue generates begins with {@value #GENERATED_MARK} ({@link #isGenerated()}), and a
 * caller-chosen id may not: {@code schedule(MessageId, ...)} refuses one with
 * {@link IllegalArgumentException}. So an order number such as {@code "1"} can never name a
 * message the queue made up, and {@code cancel} of a chosen id can never remove someone else's
 * message. A generated id read back from a log or a database ({@code MessageId.of("@k3")}) still
 * names its message for {@code cancel} and dead-letter {@code requeue}.
 *
 * @param value the id as text
 */
public record MessageId(String value) implements Comparable<MessageId> {
    /** Longest id accepted. */
    public static final int MAX_LENGTH = 200;

    /** The first character of every id a queue generates; a caller-chosen id may not begin with it. */
    public static final char GENERATED_MARK = '@';

    public MessageId {
        Objects.requireNonNull(value, "message id");
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "message id must be 1 to " + MAX_LENGTH + " characters, was " + value.length());
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.isWhitespace(c)) {
                throw new IllegalArgumentException(
                        "message id must not contain whitespace or control characters: " + quote(value));
            }
        }
    }

    /** The id with the given text; see the class comment for what is accepted. */
    public static MessageId of(String value) {
        return new MessageId(value);
    }

    /**
     * A new random id (a UUID without dashes), for a caller who wants a unique id of its own; it is
     * not {@linkplain #isGenerated() generated}.
     */
    public static MessageId random() {
        UUID u = UUID.randomUUID();
        return new MessageId(hex(u.getMostSignificantBits()) + hex(u.getLeastSignificantBits()));
    }

    /** Whether a queue generated this id: it begins with {@value #GENERATED_MARK}. */
    public boolean isGenerated() {
        return value.charAt(0) == GENERATED_MARK;
    }

    private static String hex(long bits) {
        String s = Long.toHexString(bits);
        return "0".repeat(16 - s.length()) + s;
    }

    private static String quote(String value) {
        return '"' + value.replaceAll("\\p{Cntrl}", "?") + '"';
    }

    @Override
    public int compareTo(MessageId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
