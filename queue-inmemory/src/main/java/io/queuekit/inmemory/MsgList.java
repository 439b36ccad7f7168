package io.queuekit.inmemory;

import java.util.function.Consumer;

/**
 * A list of messages linked through the messages themselves ({@link Msg#previous},
 * {@link Msg#next}): appending, taking the first and removing any one cost no search and no
 * allocation. A message is on at most one such list at a time. Not thread-safe: the engine's lock
 * guards it.
 */
final class MsgList {
    private Msg head;
    private Msg tail;
    private int size;

    void addLast(Msg m) {
        m.previous = tail;
        m.next = null;
        if (tail == null) {
            head = m;
        } else {
            tail.next = m;
        }
        tail = m;
        size++;
    }

    /** Removes a message that is on this list. */
    void remove(Msg m) {
        if (m.previous == null) {
            head = m.next;
        } else {
            m.previous.next = m.next;
        }
        if (m.next == null) {
            tail = m.previous;
        } else {
            m.next.previous = m.previous;
        }
        m.previous = null;
        m.next = null;
        size--;
    }

    /** The first message; null if the list is empty. */
    Msg first() {
        return head;
    }

    /** The last message; null if the list is empty. */
    Msg last() {
        return tail;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Every message, first to last; {@code action} must not add or remove. */
    void forEach(Consumer<Msg> action) {
        for (Msg m = head; m != null; m = m.next) {
            action.accept(m);
        }
    }
}
