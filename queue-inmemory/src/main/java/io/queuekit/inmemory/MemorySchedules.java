package io.queuekit.inmemory;

import io.queuekit.MessageId;
import io.queuekit.Schedule;
import io.queuekit.internal.ScheduleRunner;
import io.queuekit.internal.ScheduleStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An in-memory delay queue's schedules, under its engine's lock, as the Redis queue keeps them in
 * its keys: every scheduler of the queue shares this one store, and a fire stores its ticks with
 * the queue's chosen-id rule.
 */
final class MemorySchedules<T> implements ScheduleStore<T> {
    private final Engine<T> engine;
    // guarded by engine.lock
    private final Map<String, Stored<T>> schedules = new TreeMap<>();
    /** Versions are never reused, not even by a schedule removed and put again in one instant. */
    private long versions;

    private static final class Stored<T> {
        final Schedule<T> schedule;
        final Object body;
        final long version;
        long base;
        long last = NONE;
        long previous = NONE;

        Stored(Schedule<T> schedule, Object body, long version, long base) {
            this.schedule = schedule;
            this.body = body;
            this.version = version;
            this.base = base;
        }

        Entry entry() {
            return new Entry(schedule.name(), schedule.trigger(), schedule.missed(), version, base, last, previous);
        }
    }

    MemorySchedules(Engine<T> engine) {
        this.engine = engine;
    }

    @Override
    public Snapshot read() {
        engine.lock.lock();
        try {
            engine.runtime().checkOpen();
            List<Entry> out = new ArrayList<>(schedules.size());
            for (Stored<T> s : schedules.values()) {
                out.add(s.entry());
            }
            return new Snapshot(engine.now().toEpochMilli(), out);
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public Entry put(Schedule<T> schedule) {
        Objects.requireNonNull(schedule, "schedule");
        Object body = engine.bodies().store(schedule.payload(), schedule.headers()); // checked before anything changes
        engine.lock.lock();
        try {
            engine.runtime().checkOpen();
            Stored<T> old = schedules.get(schedule.name());
            if (old != null && old.schedule.equals(schedule)) {
                return old.entry();
            }
            long now = engine.now().toEpochMilli();
            Stored<T> s = new Stored<>(schedule, body, ++versions, now);
            if (old != null) {
                withdraw(old, now);
                // a tick not yet due is the new schedule's to decide, withdrawn or not (a user may have cancelled it)
                s.last = old.last != NONE && old.last > now ? old.previous : old.last;
                s.previous = NONE;
            }
            schedules.put(schedule.name(), s);
            return s.entry();
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public boolean remove(String name) {
        engine.lock.lock();
        try {
            engine.runtime().checkOpen();
            Stored<T> old = schedules.remove(name);
            if (old == null) {
                return false;
            }
            withdraw(old, engine.now().toEpochMilli());
            return true;
        } finally {
            engine.lock.unlock();
        }
    }

    /** Cancels the tick {@code s} stored ahead, if it is not due yet. */
    private void withdraw(Stored<T> s, long now) {
        if (s.last != NONE && s.last > now) {
            engine.cancel(MessageId.of(ScheduleRunner.tickId(s.schedule.name(), s.last)));
        }
    }

    @Override
    public Schedule<T> load(String name) {
        engine.lock.lock();
        try {
            engine.runtime().checkOpen();
            Stored<T> s = schedules.get(name);
            return s == null ? null : s.schedule;
        } finally {
            engine.lock.unlock();
        }
    }

    @Override
    public boolean fire(String name, long version, long base, List<Tick> ticks, long newBase) {
        engine.lock.lock();
        try {
            engine.runtime().checkOpen();
            Stored<T> s = schedules.get(name);
            if (s == null || s.version != version || s.base != base) {
                return false;
            }
            for (Tick t : ticks) {
                engine.store(
                        MessageId.of(t.id()),
                        s.body,
                        null,
                        Instant.ofEpochMilli(t.dueMillis())); // unless the id is stored
            }
            if (!ticks.isEmpty()) {
                s.previous = ticks.size() > 1 ? ticks.get(ticks.size() - 2).dueMillis() : s.last;
                s.last = ticks.get(ticks.size() - 1).dueMillis();
            }
            s.base = newBase;
            return true;
        } finally {
            engine.lock.unlock();
        }
    }
}
