package io.queuekit.inmemory;

import io.queuekit.MessageId;
import io.queuekit.internal.GeneratedIds;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What one in-memory queue holds, apart from the objects on it: bodies by id, the ready list, the
 * delayed and leased sets, the dead letters, the pause flag, the counters, and the waiters, all
 * under one lock. An {@link InMemoryMessageQueue} has its own; a group of an {@link InMemoryTopic}
 * has one that every object on the group shares, as the objects on one Redis queue share its keys.
 * Each {@link Engine} on it brings one object's lifecycle, consumers and metrics; the easy thing to
 * get wrong is keeping any of this state in an engine, where a second object would not see it.
 */
final class Contents {
    static final Comparator<Msg> BY_DUE =
            Comparator.<Msg, Instant>comparing(m -> m.dueAt).thenComparingLong(m -> m.seq);

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    // all guarded by lock
    final Map<MessageId, Msg> stored = new HashMap<>();
    final MsgList ready = new MsgList();
    final TreeSet<Msg> delayed = new TreeSet<>(BY_DUE);
    final Leases leased = new Leases();
    /** Messages whose lease expired, in the order they expired, until a receive reaps them. */
    final MsgList expired = new MsgList();
    /** The dead letters, in the order they died. */
    final LinkedHashMap<MessageId, Msg> buried = new LinkedHashMap<>();

    final GeneratedIds generated = GeneratedIds.counting();
    long sequence;
    long leaseSequence;
    /** Whether the queue is paused: receives take nothing. */
    boolean paused;
    /** Threads waiting for ready messages, and a time by which each wakes by itself (see {@link Waiting}). */
    int waiters;

    Instant wakeBy;
    /** Whether the queue was deleted (a topic's group): every object on it refuses calls. */
    volatile boolean deleted;

    /** Makes {@code m} ready, behind what is ready; under the lock. */
    void makeReady(Msg m) {
        m.state = Msg.State.READY;
        m.seq = ++sequence;
        ready.addLast(m);
    }

    /**
     * Stores messages published to a topic, in order, ready behind what is ready, in one step, and
     * wakes a waiter if the ready list was empty (a taker that leaves messages ready wakes the
     * next). An id the queue holds already is left as it is.
     */
    void appendAll(List<TopicLog.Entry> entries) {
        lock.lock();
        try {
            if (deleted) {
                return;
            }
            boolean wasEmpty = ready.isEmpty();
            for (TopicLog.Entry e : entries) {
                if (!stored.containsKey(e.id())) {
                    Msg m = new Msg(e.id(), e.body(), e.publishedAt());
                    stored.put(m.id, m);
                    makeReady(m);
                }
            }
            if (wasEmpty && !ready.isEmpty()) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Marks the queue deleted and wakes every waiter, to see it. */
    void delete() {
        lock.lock();
        try {
            deleted = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
