package io.queuekit.redis.zset;

import static io.queuekit.redis.internal.QueueScript.array;
import static io.queuekit.redis.internal.QueueScript.integer;
import static io.queuekit.redis.internal.QueueScript.num;
import static io.queuekit.redis.internal.QueueScript.str;
import static io.queuekit.redis.internal.QueueScript.text;

import io.queuekit.Headers;
import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.ScheduleStore;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A delay queue's schedules in the queue's 'schedules' hash (on the first shard of a sharded
 * queue, whose messages then carry the ticks), each operation one script that also writes the
 * messages, so that a fire and its ticks are one atomic step ({@code schedule_*.lua}).
 */
final class ZsetSchedules<T> implements ScheduleStore<T> {
    private final Payloads<T> payloads;
    private final QueueScript read;
    private final QueueScript load;
    private final QueueScript put;
    private final QueueScript remove;
    private final QueueScript fire;

    ZsetSchedules(RedisContext<T> queue) {
        this.payloads = queue.runtime().payloads();
        String lua = "/io/queuekit/redis/zset/";
        this.read = queue.script(
                "read schedules", lua + "schedule_read.lua", "layout", "ready", "claiming", "delayed", "schedules");
        this.load = queue.script(
                "read a schedule", lua + "schedule_load.lua", "layout", "ready", "claiming", "delayed", "schedules");
        this.put = queue.script(
                        "put a schedule",
                        lua + "schedule_put.lua",
                        "layout",
                        "ready",
                        "claiming",
                        "delayed",
                        "schedules",
                        "body",
                        "att")
                .replicated();
        this.remove = queue.script(
                        "remove a schedule",
                        lua + "schedule_remove.lua",
                        "layout",
                        "ready",
                        "claiming",
                        "delayed",
                        "schedules",
                        "body",
                        "att")
                .replicated();
        this.fire = queue.script(
                        "store a schedule's ticks",
                        lua + "schedule_fire.lua",
                        "layout",
                        "ready",
                        "claiming",
                        "delayed",
                        "schedules",
                        "body",
                        "signal")
                .replicated();
    }

    @Override
    public Snapshot read() {
        List<?> r = array(read.run());
        List<Entry> entries = new ArrayList<>((r.size() - 1) / 3);
        for (int i = 1; i + 2 < r.size(); i += 3) {
            entries.add(entry(str(r.get(i)), str(r.get(i + 1)), str(r.get(i + 2))));
        }
        entries.sort((a, b) -> a.name().compareTo(b.name()));
        return new Snapshot(integer(r.get(0)), entries);
    }

    @Override
    public Entry put(Schedule<T> schedule) {
        Objects.requireNonNull(schedule, "schedule");
        byte[] body = payloads.encodeAll(List.of(schedule.payload()), schedule.headers())
                .get(0);
        List<?> r = array(put.run(text(schedule.name()), text(definition(schedule)), body));
        return entry(schedule.name(), definition(schedule), str(r.get(1)));
    }

    @Override
    public boolean remove(String name) {
        return integer(remove.run(text(name))) == 1;
    }

    @Override
    public Schedule<T> load(String name) {
        List<?> r = array(load.run(text(name)));
        if (r.isEmpty()) {
            return null;
        }
        String def = str(r.get(0));
        byte[] body = (byte[]) r.get(1);
        Trigger trigger = Trigger.parse(def.substring(def.indexOf('\n') + 1));
        Headers headers = Payloads.headers(body);
        return Schedule.of(name, trigger, payloads.decode(body))
                .withHeaders(headers)
                .whenMissed(missed(def));
    }

    @Override
    public boolean fire(String name, long version, long base, List<Tick> ticks, long newBase) {
        List<byte[]> args = new ArrayList<>(4 + 2 * ticks.size());
        args.add(text(name));
        args.add(num(version));
        args.add(num(base));
        args.add(num(newBase));
        for (Tick t : ticks) {
            args.add(text(t.id()));
            args.add(num(t.dueMillis()));
        }
        return integer(fire.run(args)) == 1;
    }

    /** How a schedule is stored: its policy for missed ticks, a newline, its trigger's text. */
    private static String definition(Schedule<?> s) {
        return s.missed().name() + "\n" + s.trigger();
    }

    private static MissedTicks missed(String definition) {
        return definition.startsWith(MissedTicks.SKIP.name() + "\n") ? MissedTicks.SKIP : MissedTicks.FIRE_ONCE;
    }

    private static Entry entry(String name, String definition, String state) {
        Trigger trigger;
        try {
            trigger = Trigger.parse(definition.substring(definition.indexOf('\n') + 1));
        } catch (IllegalArgumentException e) { // written by a version that knows more triggers
            trigger = null;
        }
        String[] s = state.split(":", -1);
        return new Entry(
                name, trigger, missed(definition), Long.parseLong(s[0]), Long.parseLong(s[1]), ms(s[2]), ms(s[3]));
    }

    private static long ms(String s) {
        return s.equals("-") ? NONE : Long.parseLong(s);
    }
}
