package io.queuekit.inmemory;

import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * An {@link Engine}'s dead letters, in the order they died, the oldest dropped beyond the
 * retention: read and moved under the engine's lock, decoded by the runtime outside it.
 */
final class Graveyard<T> implements DeadLetterStore<T> {
    private final Engine<T> engine;
    private final int retention;
    private final LinkedHashMap<MessageId, Msg> buried; // the contents', guarded by the engine's lock

    Graveyard(Engine<T> engine, int retention) {
        this.engine = engine;
        this.retention = retention;
        this.buried = engine.contents.buried;
    }

    /** Moves {@code m}, taken out of wherever it was, to the dead letters; under the lock. */
    void bury(Msg m, String reason, Instant now) {
        m.state = Msg.State.DEAD;
        m.reason = reason;
        m.deadAt = now;
        buried.put(m.id, m);
        Iterator<Msg> oldest = buried.values().iterator();
        while (buried.size() > retention) {
            Msg dropped = oldest.next();
            oldest.remove();
            engine.stored.remove(dropped.id);
        }
    }

    /** How many there are; under the lock. */
    int count() {
        return buried.size();
    }

    @Override
    public long size() {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            return buried.size();
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public List<Stored<T>> oldest(int limit) {
        List<Stored<T>> out = new ArrayList<>(Math.min(limit, 1024));
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            for (Msg m : buried.values()) {
                if (out.size() == limit) {
                    break;
                }
                out.add(stored(m));
            }
        } finally {
            engine.lock.unlock();
        }
        return out;
    }

    @Override
    public Stored<T> find(MessageId id) {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            Msg m = buried.get(id);
            return m == null ? null : stored(m);
        } finally {
            engine.lock.unlock();
        }
    }

    /** Its fields as they are now, read under the lock: a concurrent requeue clears them. */
    private Stored<T> stored(Msg m) {
        Object body = m.body;
        return new Stored<>(
                m.id,
                m.attempts,
                m.reason,
                m.deadAt,
                engine.bodies().headersOf(body),
                () -> engine.bodies().load(body));
    }

    @Override
    public boolean requeue(MessageId id) {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            engine.promote(engine.now());
            Msg m = buried.remove(id);
            if (m == null) {
                return false;
            }
            revive(m);
            engine.changed.signalAll();
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public long requeueAll() {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            engine.promote(engine.now());
            long n = buried.size();
            for (Msg m : buried.values()) {
                revive(m);
            }
            buried.clear();
            if (n > 0) {
                engine.changed.signalAll();
            }
            return n;
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public boolean purge(MessageId id) {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            if (buried.remove(id) == null) {
                return false;
            }
            engine.stored.remove(id);
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public long purgeAll() {
        engine.lock.lock();
        try {
            engine.checkNotDeleted();
            long n = buried.size();
            for (MessageId id : buried.keySet()) {
                engine.stored.remove(id);
            }
            buried.clear();
            return n;
        } finally {
            engine.lock.unlock();
        }
    }

    /** Ready again, from its first attempt, behind what is ready: the caller promoted first. */
    private void revive(Msg m) {
        m.attempts = 0;
        m.reason = null;
        m.deadAt = null;
        engine.makeReady(m);
    }
}
