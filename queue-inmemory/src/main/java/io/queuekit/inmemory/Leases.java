package io.queuekit.inmemory;

import io.queuekit.inmemory.Engine.Msg;
import java.time.Instant;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The messages in flight, in the order their leases expire (then by lease number). A lease
 * handed out on a clock that does not go back expires after every lease before it, so such
 * leases are kept in a list linked through the messages, added and removed without searching or
 * allocating; a lease that would not go at the list's end (an extension or hold that ends before
 * the newest lease, a clock put back) goes to a sorted set instead. Not thread-safe: the engine's
 * lock guards it.
 */
final class Leases {
    private static final Comparator<Msg> BY_EXPIRY =
            Comparator.<Msg, Instant>comparing(m -> m.leaseExpiry).thenComparingLong(m -> m.lease);

    private final TreeSet<Msg> unordered = new TreeSet<>(BY_EXPIRY);
    private Msg head;
    private Msg tail;
    private int listed;

    /** Adds an in-flight message; its expiry and lease number must not change until it is removed. */
    void add(Msg m) {
        if (tail == null || BY_EXPIRY.compare(tail, m) < 0) {
            m.listed = true;
            m.previousLease = tail;
            m.nextLease = null;
            if (tail == null) {
                head = m;
            } else {
                tail.nextLease = m;
            }
            tail = m;
            listed++;
        } else {
            unordered.add(m);
        }
    }

    /** Removes a message that was added. */
    void remove(Msg m) {
        if (!m.listed) {
            unordered.remove(m);
            return;
        }
        if (m.previousLease == null) {
            head = m.nextLease;
        } else {
            m.previousLease.nextLease = m.nextLease;
        }
        if (m.nextLease == null) {
            tail = m.previousLease;
        } else {
            m.nextLease.previousLease = m.previousLease;
        }
        m.previousLease = null;
        m.nextLease = null;
        m.listed = false;
        listed--;
    }

    /** The message whose lease expires first; null if none is in flight. */
    Msg first() {
        if (unordered.isEmpty()) {
            return head;
        }
        Msg u = unordered.first();
        return head == null || BY_EXPIRY.compare(u, head) < 0 ? u : head;
    }

    int size() {
        return listed + unordered.size();
    }

    /** Every message in flight, in no particular order; {@code action} must not add or remove. */
    void forEach(Consumer<Msg> action) {
        for (Msg m = head; m != null; m = m.nextLease) {
            action.accept(m);
        }
        unordered.forEach(action);
    }
}
