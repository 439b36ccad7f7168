package io.queuekit.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.GroupInfo;
import io.queuekit.QueueException;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.stream.RedisStreamTopic;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Operator commands on a stream topic: its groups with their counts, and one group as a queue for
 * {@code stats}, {@code peek} and {@code dead} (with {@code --group}). A group is opened only if it exists: an
 * operator's typo must not create a group that then holds back the topic's retention.
 */
final class StreamCommands {

    private StreamCommands() {}

    /** Opens the topic, checks that {@code group} exists, and runs {@code action} on it. */
    static int withGroup(
            UnifiedJedis jedis, RedisKeys keys, String group, Function<ConsumerGroup<byte[]>, Integer> action) {
        requireTopic(jedis, keys);
        try (RedisStreamTopic<byte[]> topic = open(jedis, keys)) {
            List<String> names = topic.groups().stream().map(GroupInfo::name).toList();
            if (!names.contains(group)) {
                throw new Main.Failure("stream topic '" + keys.name() + "' under prefix '" + keys.prefix()
                        + "' has no group '"
                        + Text.escape(group) + "'"
                        + (names.isEmpty() ? " (it has no groups)" : "; its groups: " + String.join(", ", names))
                        + "; nothing was changed");
            }
            try (ConsumerGroup<byte[]> g = topic.group(group)) {
                return action.apply(g);
            }
        }
    }

    /**
     * Refuses a name with no stream under it before the topic is opened: opening one records its
     * layout, and an operator's typo must neither write a key nor be answered as an empty topic. A
     * topic stored in shards keeps its streams under other keys: it is refused, saying so.
     */
    private static void requireTopic(UnifiedJedis jedis, RedisKeys keys) {
        String shards = jedis.get(keys.key("shards"));
        if (shards != null && !shards.equals("1")) {
            throw new Main.Failure("stream topic '" + keys.name() + "' is stored in " + Text.escape(shards)
                    + " shards, as " + keys.key("shards") + " records; the operator commands read unsharded topics"
                    + " only, nothing was changed");
        }
        String type = jedis.type(keys.key("stream"));
        if (!type.equals("stream")) {
            throw new Main.Failure("no stream topic named '" + keys.name() + "' under prefix '" + keys.prefix() + "' ("
                    + keys.key("stream") + (type.equals("none") ? " does not exist" : " is a " + Text.escape(type))
                    + "); nothing was changed");
        }
    }

    private static RedisStreamTopic<byte[]> open(UnifiedJedis jedis, RedisKeys keys) {
        return RedisStreamTopic.builder(jedis, keys.name(), Codec.bytes())
                .keyPrefix(keys.prefix())
                .build();
    }

    /** Prints what {@link StreamPeek} read of a group, as {@code peek} prints a queue's messages. */
    static int peek(Main.Context ctx, Operator.Target t, List<StreamPeek.Row> rows, Operator.JsonOption output) {
        if (output.json) {
            ObjectNode doc = t.json();
            ArrayNode messages = doc.putArray("messages");
            for (StreamPeek.Row r : rows) {
                ObjectNode row = messages.addObject()
                        .put("state", r.state().word)
                        .put("streamId", r.streamId())
                        .put("attempt", r.attempt());
                if (r.id() == null) {
                    row.put("removed", true); // by a hard cap: it will not be handed out again
                    continue;
                }
                row.put("id", r.id());
                if (r.at() != null) {
                    row.put(r.state() == StreamPeek.State.IN_FLIGHT ? "leaseUntil" : "dueAt", r.at().toString());
                }
                row.put("sentAt", r.sentAt().toString());
                Operator.payload(Operator.headers(row, r.headers()), r.payload());
            }
            Operator.print(ctx, doc);
            return 0;
        }
        if (rows.isEmpty()) {
            ctx.out().println("(nothing pending or unread)");
        }
        for (StreamPeek.Row r : rows) {
            String when = r.at() == null
                    ? ""
                    : (r.state() == StreamPeek.State.IN_FLIGHT ? "  lease until " : "  due ") + r.at();
            String head = r.state().word + "  attempt " + r.attempt() + when;
            if (r.id() == null) {
                ctx.out().println("(removed by the hard cap)  " + r.streamId() + "  " + head);
                continue;
            }
            ctx.out()
                    .println(Text.escape(r.id()) + "  " + head + "  sent " + r.sentAt()
                            + (r.headers().isEmpty() ? "" : "  " + Text.headers(r.headers()))
                            + "  " + (r.payload() == null ? "(unreadable)" : Text.payload(r.payload())));
        }
        return 0;
    }

    @Command(
            name = "groups",
            description =
                    "The consumer groups of a stream topic: lag, pending, dead letters, and what a hard cap removed before"
                            + " a group had it.")
    static final class Groups implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        Operator.QueueOptions options;

        @Mixin
        Operator.JsonOption output;

        Groups(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            URI uri = options.redis.required(ctx);
            RedisKeys keys = options.keys();
            if (options.group != null || (options.type != null && options.type != QueueType.STREAM)) {
                throw new Main.Usage(
                        "groups lists every group of the stream topic --queue names; it takes no --group or --type");
            }
            try (UnifiedJedis jedis = RedisClient.create(uri)) {
                requireTopic(jedis, keys);
                return list(jedis, keys);
            } catch (JedisException | QueueException e) {
                throw new Main.Failure("failed on Redis at " + RedisUrl.redacted(uri) + ": " + e.getMessage());
            }
        }

        private int list(UnifiedJedis jedis, RedisKeys keys) {
            try (RedisStreamTopic<byte[]> topic = open(jedis, keys)) {
                List<GroupInfo> groups = topic.groups();
                long size = topic.size();
                if (output.json) {
                    ObjectNode doc = Operator.jsonObject();
                    doc.put("topic", keys.name()).put("prefix", keys.prefix()).put("size", size);
                    ArrayNode rows = doc.putArray("groups");
                    for (GroupInfo g : groups) {
                        rows.addObject()
                                .put("name", g.name())
                                .put("lag", g.lag())
                                .put("pending", g.pending())
                                .put("dead", g.dead())
                                .put("missed", g.missed())
                                .put("subscription", g.subscription());
                    }
                    Operator.print(ctx, doc);
                    return 0;
                }
                ctx.out().printf("topic %s (stream, keys %s:*), %d messages kept%n", keys.name(), keys.base(), size);
                if (groups.isEmpty()) {
                    ctx.out().println("(no groups: what is published is kept for no one)");
                }
                for (GroupInfo g : groups) {
                    ctx.out()
                            .printf(
                                    "%-30s lag %s  pending %d  dead %d  missed %d%s%n",
                                    Text.escape(g.name()),
                                    g.lag() < 0 ? "unknown" : Long.toString(g.lag()),
                                    g.pending(),
                                    g.dead(),
                                    g.missed(),
                                    g.subscription() ? "  (a subscription's)" : "");
                }
                return 0;
            }
        }
    }
}
