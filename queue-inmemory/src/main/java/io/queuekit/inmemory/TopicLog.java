package io.queuekit.inmemory;

import io.queuekit.MessageId;
import io.queuekit.Position;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What an {@link InMemoryTopic} retains of what was published, in publish order, for
 * {@link Position}s: each message under the id {@code "@" + sequence}, stamped by the topic's
 * clock. Retention removes from the oldest end only, so the log holds every sequence from its
 * first to its last. Not thread-safe: the topic's lock guards it.
 */
final class TopicLog {

    /** One message as published: its id, its stored body (headers included) and its publish time. */
    record Entry(long seq, MessageId id, Object body, Instant publishedAt) {}

    private final Clock clock;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long sequence;

    TopicLog(Clock clock) {
        this.clock = clock;
    }

    /** Appends the bodies, in order, under new ids, stamped now; the new entries. */
    List<Entry> append(List<Object> bodies) {
        Instant now = clock.instant();
        List<Entry> added = new ArrayList<>(bodies.size());
        for (Object body : bodies) {
            long seq = ++sequence;
            Entry e = new Entry(seq, MessageId.of(MessageId.GENERATED_MARK + Long.toString(seq)), body, now);
            entries.addLast(e);
            added.add(e);
        }
        return added;
    }

    /**
     * The entries retained from {@code position} on, in publish order.
     *
     * @throws IllegalArgumentException if {@code position} is after an id this topic does not give
     */
    List<Entry> from(Position position) {
        if (position.isEnd()) {
            return List.of();
        }
        List<Entry> out = new ArrayList<>();
        if (position.time() != null) {
            for (Entry e : entries) {
                if (!e.publishedAt().isBefore(position.time())) {
                    out.add(e);
                }
            }
            return out;
        }
        long after = position.afterId() == null ? 0 : sequenceOf(position.afterId());
        for (Entry e : entries) {
            if (e.seq() > after) {
                out.add(e);
            }
        }
        return out;
    }

    /** The sequence in one of this topic's ids. */
    private static long sequenceOf(MessageId id) {
        String v = id.value();
        try {
            if (v.length() > 1 && v.charAt(0) == MessageId.GENERATED_MARK && Character.isDigit(v.charAt(1))) {
                return Long.parseLong(v.substring(1));
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("not an id an in-memory topic gives (\"@\" and a number): " + id);
    }

    /** Whether the message {@code id} of this topic is still retained. */
    boolean retains(MessageId id) {
        Entry first = entries.peekFirst();
        if (first == null) {
            return false;
        }
        try {
            long seq = sequenceOf(id);
            return seq >= first.seq() && seq <= sequence;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Removes the oldest entries while more than {@code maxLength} are retained and the oldest is
     * not {@code held}: what some group has not acked stays, and so does everything after it.
     */
    void trim(long maxLength, Predicate<MessageId> held) {
        while (entries.size() > maxLength && !held.test(entries.peekFirst().id())) {
            entries.pollFirst();
        }
    }

    int size() {
        return entries.size();
    }
}
