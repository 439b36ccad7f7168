package io.queuekit.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.DelayQueue;
import io.queuekit.Headers;
import io.queuekit.MessageQueue;
import io.queuekit.QueueException;
import io.queuekit.QueueStats;
import io.queuekit.ScheduleInfo;
import io.queuekit.Scheduler;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/** Operator commands on a queue in a running Redis: stats, peek, pause and resume, schedules, dead letters. */
final class Operator {
    /** Plain ASCII: a control character or a bidirectional override in a payload is written as an escape. */
    private static final ObjectMapper JSON =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private Operator() {}

    /** Which queue, in which Redis: the options of every operator command. */
    static final class QueueOptions {
        @Mixin
        RedisUrl.Options redis;

        @Option(names = "--queue", paramLabel = "NAME", required = true, description = "The queue's name.")
        String queue;

        @Option(
                names = "--prefix",
                paramLabel = "P",
                defaultValue = RedisKeys.DEFAULT_PREFIX,
                description = "Key prefix the queue was built with (default: ${DEFAULT-VALUE}).")
        String prefix;

        @Option(
                names = "--type",
                paramLabel = "T",
                description = "list or zset; read from the queue's keys when left out.")
        QueueType type;

        @Option(
                names = "--group",
                paramLabel = "G",
                description = "For a stream topic named by --queue: the consumer group to act on.")
        String group;

        RedisKeys keys() {
            try {
                return RedisKeys.of(prefix, queue);
            } catch (IllegalArgumentException e) {
                throw new Main.Usage(
                        (e.getMessage().startsWith("key prefix") ? "--prefix " : "--queue ") + e.getMessage());
            }
        }
    }

    /** An open queue and what the command needs beside it. */
    record Target(UnifiedJedis jedis, RedisKeys keys, QueueType type, MessageQueue<byte[]> queue, URI uri) {
        /** "queue 'orders' (list queue at redis://host:port)", for messages. */
        String describe() {
            if (queue instanceof ConsumerGroup<byte[]> g) {
                return "group '" + g.name() + "' of stream topic '" + keys.name() + "' (at " + RedisUrl.redacted(uri)
                        + ")";
            }
            return "queue '" + keys.name() + "' (" + type.word() + " queue at " + RedisUrl.redacted(uri) + ")";
        }

        /**
         * The next {@code limit} messages the queue will deliver, as the queue itself reads them,
         * with payloads as stored (the queue is opened with {@link Codec#bytes()}).
         */
        List<WaitingMessage<byte[]>> peek(int limit) {
            if (queue instanceof RedisListQueue<byte[]> list) {
                return list.peek(limit);
            }
            return ((RedisDelayQueue<byte[]>) queue).peek(limit);
        }

        /** A JSON object naming the queue, for {@code --json}. */
        ObjectNode json() {
            ObjectNode o = JSON.createObjectNode();
            o.put("queue", keys.name()).put("prefix", keys.prefix()).put("type", type.word());
            if (queue instanceof ConsumerGroup<byte[]> g) {
                o.put("group", g.name());
            }
            return o;
        }
    }

    /** {@code --json}: one JSON document on standard output instead of lines for people. */
    static final class JsonOption {
        @Option(names = "--json", description = "Print one JSON document (ASCII only), for scripts.")
        boolean json;
    }

    /** An empty JSON object for a command's {@code --json} document. */
    static ObjectNode jsonObject() {
        return JSON.createObjectNode();
    }

    static void print(Main.Context ctx, ObjectNode json) {
        try {
            ctx.out().println(JSON.writeValueAsString(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The headers as the object "headers", name to value, in their order ({} when there are none). */
    static ObjectNode headers(ObjectNode o, Headers headers) {
        ObjectNode h = o.putObject("headers");
        headers.asMap().forEach(h::put);
        return o;
    }

    /** The payload as "payload" when it is UTF-8 text, else as "payloadBase64". */
    static ObjectNode payload(ObjectNode o, byte[] bytes) {
        if (bytes == null) {
            return o.putNull("payload");
        }
        String text = Text.utf8(bytes);
        return text != null
                ? o.put("payload", text)
                : o.put("payloadBase64", Base64.getEncoder().encodeToString(bytes));
    }

    /** Connects, tells the queue's type, opens it, and runs {@code action} on it. */
    static int withQueue(Main.Context ctx, QueueOptions options, Function<Target, Integer> action) {
        URI uri = options.redis.required(ctx);
        RedisKeys keys = options.keys();
        if (options.type == QueueType.STREAM && options.group == null) {
            throw new Main.Usage("--type stream needs --group: a stream topic is read one group at a time");
        }
        if (options.group != null && options.type != null && options.type != QueueType.STREAM) {
            throw new Main.Usage(
                    "--group names a stream topic's group, not part of a " + options.type.word() + " queue");
        }
        try (UnifiedJedis jedis = RedisClient.create(uri)) {
            if (options.group != null) {
                return StreamCommands.withGroup(
                        jedis,
                        keys,
                        options.group,
                        q -> action.apply(new Target(jedis, keys, QueueType.STREAM, q, uri)));
            }
            QueueType type = QueueLayout.resolve(jedis, keys, options.type);
            try (MessageQueue<byte[]> q = open(jedis, keys, type)) {
                return action.apply(new Target(jedis, keys, type, q, uri));
            }
        } catch (JedisException | QueueException e) {
            throw new Main.Failure((reached(e) ? "failed on Redis at " : "cannot talk to Redis at ")
                    + RedisUrl.redacted(uri) + ": " + e.getMessage());
        }
    }

    /** Whether Redis was reached and let in: the failure is then Redis's answer, not the connection. */
    private static boolean reached(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JedisConnectionException || t instanceof JedisAccessControlException) {
                return false;
            }
        }
        return true;
    }

    @Command(
            name = "stats",
            description = "Counts of a queue: ready, in flight, delayed, dead; and whether it is paused.")
    static final class Stats implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Mixin
        JsonOption output;

        Stats(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                QueueStats s = t.queue().stats();
                if (output.json) {
                    print(
                            ctx,
                            t.json()
                                    .put("ready", s.ready())
                                    .put("inFlight", s.inFlight())
                                    .put("delayed", s.delayed())
                                    .put("dead", s.dead())
                                    .put("paused", s.paused()));
                    return 0;
                }
                if (t.queue() instanceof ConsumerGroup<byte[]> g) {
                    ctx.out()
                            .printf(
                                    "group      %s of stream topic %s (keys %s:*)%n",
                                    g.name(), t.keys().name(), t.keys().base());
                } else {
                    ctx.out()
                            .printf(
                                    "queue      %s (%s queue, keys %s:*)%n",
                                    t.keys().name(), t.type().word(), t.keys().base());
                }
                ctx.out()
                        .printf(
                                "ready      %d%nin flight  %d%ndelayed    %d%ndead       %d%npaused     %s%n",
                                s.ready(), s.inFlight(), s.delayed(), s.dead(), s.paused() ? "yes" : "no");
                return 0;
            });
        }
    }

    @Command(
            name = "pause",
            description = {
                "Pauses a queue: it keeps what is sent and hands nothing out until `queuekit resume`.",
                "Every process's consumers stop taking within about a second; what they hold stays theirs."
            })
    static final class Pause implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        Pause(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                boolean was = t.queue().isPaused();
                t.queue().pause();
                ctx.out().println(t.describe() + (was ? " was paused already" : " paused"));
                return 0;
            });
        }
    }

    @Command(name = "resume", description = "Resumes a paused queue: it hands out again what it kept, in order.")
    static final class Resume implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        Resume(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                boolean was = t.queue().isPaused();
                t.queue().resume();
                ctx.out().println(t.describe() + (was ? " resumed" : " was not paused"));
                return 0;
            });
        }
    }

    @Command(
            name = "schedules",
            description = "A delay queue's recurring schedules: trigger, missed-tick policy, last and next run.")
    static final class Schedules implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Mixin
        JsonOption json;

        Schedules(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                if (!(t.queue() instanceof DelayQueue<byte[]> delays)) {
                    throw new Main.Failure(t.describe() + " has no schedules: only delay queues have them");
                }
                List<ScheduleInfo<byte[]>> all;
                try (Scheduler<byte[]> reader = delays.scheduler()) { // never started: reads only
                    all = reader.list();
                }
                if (json.json) {
                    ObjectNode o = t.json();
                    ArrayNode list = o.putArray("schedules");
                    for (ScheduleInfo<byte[]> i : all) {
                        ObjectNode e = list.addObject()
                                .put("name", i.schedule().name())
                                .put("trigger", i.schedule().trigger().toString())
                                .put("missed", i.schedule().missed().name())
                                .put(
                                        "lastRun",
                                        i.lastRun() == null ? null : i.lastRun().toString())
                                .put(
                                        "nextRun",
                                        i.nextRun() == null ? null : i.nextRun().toString());
                        payload(e, i.schedule().payload());
                        headers(e, i.schedule().headers());
                    }
                    print(ctx, o);
                    return 0;
                }
                if (all.isEmpty()) {
                    ctx.out().println(t.describe() + " has no schedules");
                }
                for (ScheduleInfo<byte[]> i : all) {
                    ctx.out()
                            .println(i.schedule().name() + "  " + i.schedule().trigger() + "  missed "
                                    + i.schedule()
                                            .missed()
                                            .name()
                                            .toLowerCase(java.util.Locale.ROOT)
                                            .replace('_', '-')
                                    + "  last " + (i.lastRun() == null ? "-" : i.lastRun())
                                    + "  next " + (i.nextRun() == null ? "-" : i.nextRun()));
                }
                return 0;
            });
        }
    }

    @Command(
            name = "peek",
            description = "The next messages a queue will deliver, without taking them; with --group, a stream"
                    + " group's pending messages, then those it has not read.")
    static final class Peek implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Mixin
        JsonOption output;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "10",
                description = "How many, 1 to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        Peek(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            checkRange("--limit", limit, 1, 1000);
            return withQueue(ctx, options, t -> {
                if (t.queue() instanceof ConsumerGroup<byte[]> g) {
                    return StreamCommands.peek(ctx, t, StreamPeek.read(t.jedis(), t.keys(), g.name(), limit), output);
                }
                List<WaitingMessage<byte[]>> next = t.peek(limit);
                // the list queue's attempt is shown, as it always was; the delay queue's due time
                boolean attempts = t.type() == QueueType.LIST;
                if (output.json) {
                    ObjectNode doc = t.json();
                    ArrayNode rows = doc.putArray("messages");
                    for (WaitingMessage<byte[]> m : next) {
                        ObjectNode row = rows.addObject();
                        if (!readable(m)) {
                            row.put("unreadable", Base64.getEncoder().encodeToString(m.payload()));
                            continue;
                        }
                        row.put("id", m.id().value());
                        if (attempts) {
                            row.put("attempt", m.attempt());
                        }
                        if (m.dueAt() != null) {
                            row.put("dueAt", m.dueAt().toString());
                        }
                        if (m.enqueuedAt() != null) {
                            row.put("sentAt", m.enqueuedAt().toString());
                        }
                        payload(headers(row, m.headers()), m.payload());
                    }
                    print(ctx, doc);
                    return 0;
                }
                if (next.isEmpty()) {
                    ctx.out().println(t.type() == QueueType.LIST ? "(no ready messages)" : "(no waiting messages)");
                }
                for (WaitingMessage<byte[]> m : next) {
                    if (!readable(m)) {
                        ctx.out()
                                .println("(unreadable entry)  "
                                        + (m.id() == null ? "" : Text.escape(m.id().value()) + "  ")
                                        + Text.payload(m.payload()));
                        continue;
                    }
                    ctx.out()
                            .println(Text.escape(m.id().value())
                                    + (attempts ? "  attempt " + m.attempt() : "")
                                    + (m.dueAt() != null ? "  due " + m.dueAt() : "")
                                    + (m.enqueuedAt() != null ? "  sent " + m.enqueuedAt() : "")
                                    + (m.headers().isEmpty() ? "" : "  " + Text.headers(m.headers()))
                                    + "  " + (m.payload() == null ? "(no body)" : Text.payload(m.payload())));
                }
                return 0;
            });
        }

        /**
         * Whether the queue read the entry as a message: one that another program wrote is shown
         * as it is stored (no id, or no enqueue time beside a payload, see {@link WaitingMessage}).
         */
        private static boolean readable(WaitingMessage<byte[]> m) {
            return m.id() != null && (m.enqueuedAt() != null || m.payload() == null);
        }
    }

    static void checkRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new Main.Usage(option + " must be " + min + " to " + max + ": " + value);
        }
    }

    private static MessageQueue<byte[]> open(UnifiedJedis jedis, RedisKeys keys, QueueType type) {
        return type == QueueType.LIST
                ? RedisListQueue.builder(jedis, keys.name(), Codec.bytes())
                        .keyPrefix(keys.prefix())
                        .build()
                : RedisDelayQueue.builder(jedis, keys.name(), Codec.bytes())
                        .keyPrefix(keys.prefix())
                        .build();
    }
}
