package io.queuekit.inmemory;

import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import java.util.List;

/**
 * One stored group of an {@link InMemoryTopic}: its name, its {@link Contents} (a copy of every
 * message published since its start that it has not acked). A subscription's group ({@code ~<n>}) is deleted when its subscription closes.
 */
final class TopicGroup {
    final String name;
    final boolean subscription;
    final Contents contents = new Contents();
    /** The metrics' namespace of every object on this group. */
    final String namespace = Settings.metricsNamespace();

    TopicGroup(String name, boolean subscription) {
        this.name = name;
        this.subscription = subscription;
    }

    /**
     * Whether the group holds the message {@code id} and has not acked it (a dead letter is not
     * held: the group keeps its own copy).
     */
    boolean holds(MessageId id) {
        contents.lock.lock();
        try {
            Msg m = contents.stored.get(id);
            return m != null && m.state != Msg.State.DEAD;
        } finally {
            contents.lock.unlock();
        }
    }

    /**
     * Moves where the group reads to the start of {@code from}: what it was not handed yet and the
     * topic retains is dropped, then every message of {@code from} is ready again, in publish order,
     * but those it holds in flight, waiting for a retry or dead (they stay as they are).
     */
    void replay(List<TopicLog.Entry> from, TopicLog log) {
        contents.lock.lock();
        try {
            for (Msg m = contents.ready.first(); m != null; ) {
                Msg next = m.next;
                if (m.attempts == 0 && log.retains(m.id)) {
                    contents.ready.remove(m);
                    contents.stored.remove(m.id);
                    m.state = Msg.State.GONE;
                }
                m = next;
            }
            for (TopicLog.Entry e : from) {
                Msg m = contents.stored.get(e.id());
                if (m == null) {
                    m = new Msg(e.id(), e.body(), e.publishedAt());
                    contents.stored.put(m.id, m);
                    contents.makeReady(m);
                } else if (m.state == Msg.State.READY) {
                    contents.ready.remove(m); // a redelivery: into publish order
                    contents.makeReady(m);
                }
            }
            if (!contents.ready.isEmpty()) {
                contents.changed.signalAll();
            }
        } finally {
            contents.lock.unlock();
        }
    }

    /**
     * The group's counts: its lag is what it holds and was never handed (ready, no attempt yet),
     * pending the rest of what it has not acked but its dead letters.
     */
    GroupInfo info() {
        contents.lock.lock();
        try {
            long lag = 0;
            for (Msg m = contents.ready.first(); m != null; m = m.next) {
                if (m.attempts == 0) {
                    lag++;
                }
            }
            long dead = contents.buried.size();
            long pending = contents.stored.size() - dead - lag;
            return new GroupInfo(name, lag, pending, dead, 0, subscription);
        } finally {
            contents.lock.unlock();
        }
    }
}
