package io.queuekit.cli;

import io.queuekit.Codec;
import io.queuekit.DeadLetter;
import io.queuekit.MessageQueue;
import io.queuekit.QueueException;
import io.queuekit.QueueStats;
import io.queuekit.redis.RedisKeys;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/** Operator commands on a queue in a running Redis: stats, peek, dead letters. */
final class Operator {
    private static final Set<String> OPTIONS = Set.of("redis", "queue", "prefix", "type", "limit", "id");

    private static final String HELP = """
            usage: queuekit %s --redis URL --queue NAME [options]

              --redis URL      redis://[user:password@]host:port[/db], or rediss:// for TLS
              --queue NAME     the queue's name
              --prefix P       key prefix the queue was built with (default queuekit)
              --type T         list or zset; detected from the keys when left out
            %s""";

    private Operator() {}

    static int run(String command, String[] words, PrintStream out) {
        Args a = Args.parse(words, OPTIONS);
        String sub = command.equals("dead") ? (a.positional().isEmpty() ? "" : a.positional().get(0)) : "";
        if (a.help()) {
            out.printf(HELP, command + (command.equals("dead") ? " list|requeue|purge" : ""), extraHelp(command));
            return 0;
        }
        if (command.equals("dead") && !Set.of("list", "requeue", "purge").contains(sub)) {
            throw new Args.UsageException("dead needs one of list, requeue, purge");
        }
        URI uri = redisUri(a.required("redis"));
        String prefix = a.option("prefix", RedisKeys.DEFAULT_PREFIX);
        RedisKeys keys;
        try {
            keys = RedisKeys.of(prefix, a.required("queue"));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try (UnifiedJedis jedis = RedisClient.create(uri)) {
            String type = kind(jedis, keys, a.option("type", null));
            try (MessageQueue<byte[]> q = open(jedis, keys, type)) {
                switch (command) {
                    case "stats" -> stats(q.stats(), keys, type, out);
                    case "peek" -> peek(jedis, keys, type, a.intOption("limit", 10, 1, 1000), out);
                    default -> dead(q, sub, a, out);
                }
            }
            return 0;
        } catch (JedisException | QueueException e) {
            throw new Failure("cannot talk to Redis at " + redacted(uri) + ": " + e.getMessage());
        }
    }

    private static String extraHelp(String command) {
        return switch (command) {
            case "peek" -> "  --limit N        how many (default 10)\n";
            case "dead" -> "  --limit N        list: how many (default 10)\n"
                    + "  --id ID          requeue: only this dead letter (default: all)\n";
            default -> "";
        };
    }

    /** Parses and checks a Redis URL, saying what is wrong with it. */
    static URI redisUri(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new Args.UsageException("invalid Redis URL '" + text + "': " + e.getReason());
        }
        if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
            throw new Args.UsageException("invalid Redis URL '" + text
                    + "': expected redis://[user:password@]host:port[/db] or rediss:// for TLS");
        }
        if (uri.getHost() == null) {
            throw new Args.UsageException("invalid Redis URL '" + text + "': no host");
        }
        return uri;
    }

    static String redacted(URI uri) {
        return uri.getScheme() + "://" + (uri.getUserInfo() != null ? "***@" : "") + uri.getHost()
                + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    }

    /** list or zset, from the --type option or the queue's keys; fails naming the queues that exist. */
    private static String kind(UnifiedJedis jedis, RedisKeys keys, String given) {
        if (given != null) {
            if (!given.equals("list") && !given.equals("zset")) {
                throw new Args.UsageException("--type must be list or zset: " + given);
            }
            return given;
        }
        String ready = jedis.type(keys.key("ready"));
        if (ready.equals("list") || ready.equals("zset")) {
            return ready;
        }
        if (jedis.exists(keys.key("delayed"))) {
            return "list";
        }
        for (String part : List.of("body", "inflight", "dead", "seq")) {
            if (jedis.exists(keys.key(part))) {
                throw new Failure("queue '" + keys.name() + "' holds no ready messages, so its type cannot be told: "
                        + "add --type list or --type zset");
            }
        }
        Set<String> known = knownQueues(jedis, keys.prefix());
        throw new Failure("no queue named '" + keys.name() + "' under prefix '" + keys.prefix() + "'"
                + (known.isEmpty() ? " (no queues found under that prefix)" : "; queues found: " + String.join(", ", known)));
    }

    private static Set<String> knownQueues(UnifiedJedis jedis, String prefix) {
        Set<String> names = new TreeSet<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams params = new ScanParams().match(prefix + ":{*}:*").count(1000);
        int rounds = 0;
        do {
            ScanResult<String> r = jedis.scan(cursor, params);
            for (String k : r.getResult()) {
                int open = k.indexOf(":{");
                int close = k.indexOf("}:", open);
                if (open >= 0 && close > open) {
                    names.add(k.substring(open + 2, close));
                }
            }
            cursor = r.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START) && ++rounds < 100 && names.size() < 50);
        return names;
    }

    private static MessageQueue<byte[]> open(UnifiedJedis jedis, RedisKeys keys, String type) {
        return type.equals("list")
                ? RedisListQueue.builder(jedis, keys.name(), Codec.bytes()).keyPrefix(keys.prefix()).build()
                : RedisDelayQueue.builder(jedis, keys.name(), Codec.bytes()).keyPrefix(keys.prefix()).build();
    }

    private static void stats(QueueStats s, RedisKeys keys, String type, PrintStream out) {
        out.printf("queue      %s (%s queue, keys %s:*)%n", keys.name(), type, keys.base());
        out.printf("ready      %d%nin flight  %d%ndelayed    %d%ndead       %d%n", s.ready(), s.inFlight(), s.delayed(), s.dead());
    }

    private static void peek(UnifiedJedis jedis, RedisKeys keys, String type, int limit, PrintStream out) {
        byte[] bodyKey = keys.keyBytes("body");
        if (type.equals("list")) {
            // consumers take from the right end, so the next messages are the last elements
            List<byte[]> ids = jedis.lrange(keys.keyBytes("ready"), -limit, -1);
            if (ids.isEmpty()) {
                out.println("(no ready messages)");
            }
            for (int i = ids.size() - 1; i >= 0; i--) {
                byte[] body = jedis.hget(bodyKey, ids.get(i));
                out.println(body == null ? show(ids.get(i)) : new String(ids.get(i), StandardCharsets.UTF_8) + "  " + showBody(body));
            }
        } else {
            List<Tuple> rows = jedis.zrangeWithScores(keys.keyBytes("ready"), 0, limit - 1);
            if (rows.isEmpty()) {
                out.println("(no waiting messages)");
            }
            for (Tuple t : rows) {
                long due = (long) Math.floor(t.getScore() / 4096) + 1735689600000L;
                byte[] body = jedis.hget(bodyKey, t.getBinaryElement());
                out.println(t.getElement() + "  due " + Instant.ofEpochMilli(due) + "  " + (body == null ? "" : showBody(body)));
            }
        }
    }

    private static void dead(MessageQueue<byte[]> q, String sub, Args a, PrintStream out) {
        switch (sub) {
            case "list" -> {
                List<DeadLetter<byte[]>> rows = q.deadLetters().list(a.intOption("limit", 10, 1, 10_000));
                if (rows.isEmpty()) {
                    out.println("(no dead letters)");
                }
                for (DeadLetter<byte[]> d : rows) {
                    out.println(d.id() + "  " + d.deadAt() + "  attempts " + d.attempts() + "  reason: " + d.reason()
                            + "  " + (d.payload() == null ? "" : show(d.payload())));
                }
            }
            case "requeue" -> {
                String id = a.option("id", null);
                if (id != null) {
                    boolean done = q.deadLetters().requeue(io.queuekit.MessageId.of(id));
                    if (!done) {
                        throw new Failure("no dead letter with id " + id);
                    }
                    out.println("requeued 1");
                } else {
                    out.println("requeued " + q.deadLetters().requeueAll());
                }
            }
            default -> out.println("purged " + q.deadLetters().purge());
        }
    }

    /** A stored body without its enqueue-time header. */
    private static String showBody(byte[] body) {
        int colon = 0;
        while (colon < body.length && body[colon] != ':') {
            colon++;
        }
        long enqueued = Long.parseLong(new String(body, 0, colon, StandardCharsets.US_ASCII));
        byte[] payload = java.util.Arrays.copyOfRange(body, Math.min(colon + 1, body.length), body.length);
        return "sent " + Instant.ofEpochMilli(enqueued) + "  " + show(payload);
    }

    /** Payload bytes as text when printable, shortened. */
    static String show(byte[] payload) {
        String s = new String(payload, StandardCharsets.UTF_8);
        boolean printable = s.chars().allMatch(c -> c >= 32 && c != 127 && c != 0xFFFD || c == '\t');
        if (!printable) {
            return "<" + payload.length + " bytes, not text>";
        }
        return s.length() > 200 ? s.substring(0, 200) + "... (" + payload.length + " bytes)" : s;
    }

    /** The command could not be carried out; the message says why. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }
}
