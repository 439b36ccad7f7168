package io.queuekit.inmemory;

import java.time.Instant;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The messages in flight, in the order their leases expire (then by lease number). A lease
 * handed out on a clock that does not go back expires after every lease before it, so such
 * leases are kept in a {@link MsgList}, added and removed without searching or allocating; a
 * lease that would not go at the list's end (an extension or hold that ends before the newest
 * lease, a clock put back) goes to a sorted set instead. Not thread-safe: the engine's lock guards
 * it.
 */
final class Leases {
    private static final Comparator<Msg> BY_EXPIRY =
            Comparator.<Msg, Instant>comparing(m -> m.leaseExpiry).thenComparingLong(m -> m.lease);

    private final MsgList listed = new MsgList();
    private final TreeSet<Msg> unordered = new TreeSet<>(BY_EXPIRY);

    /** Adds an in-flight message; its expiry and lease number must not change until it is removed. */
    void add(Msg m) {
        Msg last = listed.last();
        m.listed = last == null || BY_EXPIRY.compare(last, m) < 0;
        if (m.listed) {
            listed.addLast(m);
        } else {
            unordered.add(m);
        }
    }

    /** Removes a message that was added. */
    void remove(Msg m) {
        if (m.listed) {
            listed.remove(m);
            m.listed = false;
        } else {
            unordered.remove(m);
        }
    }

    /** The message whose lease expires first; null if none is in flight. */
    Msg first() {
        Msg l = listed.first();
        if (unordered.isEmpty()) {
            return l;
        }
        Msg u = unordered.first();
        return l == null || BY_EXPIRY.compare(u, l) < 0 ? u : l;
    }

    int size() {
        return listed.size() + unordered.size();
    }

    /** Every message in flight, in no particular order; {@code action} must not add or remove. */
    void forEach(Consumer<Msg> action) {
        listed.forEach(action);
        unordered.forEach(action);
    }
}
