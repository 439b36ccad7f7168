package io.queuekit;

import java.time.Instant;
import java.util.Objects;

/**
 * Where a {@link ConsumerGroup} starts or resumes reading its {@link Topic}: at the end (what is
 * published from now on), at the beginning of what the topic retains, at a time, or after a
 * message. Immutable; compares by value.
 */
public final class Position {
    private static final Position END = new Position(null, null, true);
    private static final Position BEGINNING = new Position(null, null, false);

    private final Instant time;
    private final MessageId after;
    private final boolean end;

    private Position(Instant time, MessageId after, boolean end) {
        this.time = time;
        this.after = after;
        this.end = end;
    }

    /** What is published from now on. */
    public static Position end() {
        return END;
    }

    /** Everything the topic still retains. */
    public static Position beginning() {
        return BEGINNING;
    }

    /**
     * The messages published at or after {@code time}, as the topic's clock stamped them (for Redis:
     * the server's, to the millisecond).
     */
    public static Position at(Instant time) {
        return new Position(Objects.requireNonNull(time, "time"), null, false);
    }

    /** The messages published after the one with id {@code id} (an id the topic gave). */
    public static Position after(MessageId id) {
        return new Position(null, Objects.requireNonNull(id, "id"), false);
    }

    /** Whether this is {@link #end()}. */
    public boolean isEnd() {
        return end;
    }

    /** Whether this is {@link #beginning()}. */
    public boolean isBeginning() {
        return !end && time == null && after == null;
    }

    /** The time of {@link #at(Instant)}; null for the other kinds. */
    public Instant time() {
        return time;
    }

    /** The id of {@link #after(MessageId)}; null for the other kinds. */
    public MessageId afterId() {
        return after;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Position p
                && end == p.end
                && Objects.equals(time, p.time)
                && Objects.equals(after, p.after);
    }

    @Override
    public int hashCode() {
        return Objects.hash(time, after, end);
    }

    @Override
    public String toString() {
        if (end) {
            return "end";
        }
        if (time != null) {
            return "at " + time;
        }
        return after != null ? "after " + after.value() : "beginning";
    }
}
