package io.queuekit.cli;

import io.queuekit.redis.internal.RedisKeys;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Tells a queue's type from the Redis types of its keys, before any command writes. A script of
 * the wrong type writes into keys of the other layout: the delay queue's requeue turns an empty
 * list queue's {@code ready} into a ZSET (every later send then fails with WRONGTYPE), and the list
 * queue's fails half-way through on a delay queue's ZSET, after it has removed the dead letter. So
 * a {@code --type} that the keys contradict is refused, and so are keys that fit neither layout.
 *
 * <p>The layouts, per key part ({@code <prefix>:{<name>}:<part>}); a part a layout does not name
 * must not exist in it:
 * <pre>
 * part       list queue   delay (zset) queue
 * ready      list         zset
 * claiming   list         -
 * delayed    zset         -
 * signal     -            list
 * lease      -            hash
 * held       hash         -
 * inflight, dead: zset; body, att, reason: hash; seq, layout, paused: string (both)
 * </pre>
 * The queues record their type in {@code layout} ({@code list} or {@code zset}) once they store a
 * waiting message; where it exists it decides. A queue without it that holds only dead letters has
 * none of the parts that differ, so its type cannot be told and must be given. A queue stored in
 * shards, as {@code shards} records, keeps its messages under other keys: it is refused.
 */
final class QueueLayout {
    private static final Map<String, String> SHARED = Map.of(
            "inflight",
            "zset",
            "dead",
            "zset",
            "body",
            "hash",
            "att",
            "hash",
            "reason",
            "hash",
            "seq",
            "string",
            "layout",
            "string",
            "paused",
            "string");
    private static final Map<QueueType, Map<String, String>> OWN = Map.of(
            QueueType.LIST, Map.of("ready", "list", "claiming", "list", "delayed", "zset", "held", "hash"),
            QueueType.ZSET, Map.of("ready", "zset", "signal", "list", "lease", "hash"));
    /** Every part either layout has, in the order messages name them. */
    private static final List<String> PARTS = List.of(
            "ready",
            "claiming",
            "delayed",
            "signal",
            "lease",
            "held",
            "inflight",
            "dead",
            "body",
            "att",
            "reason",
            "seq",
            "layout",
            "paused");

    private QueueLayout() {}

    /**
     * The queue's type: {@code given} if the keys allow it, else the one the keys show.
     *
     * @throws Main.Usage if {@code given} contradicts the keys, or the keys cannot tell and none
     *     was given
     * @throws Main.Failure if no key of the queue exists (naming the queues that do) and no type
     *     was given, if the keys fit no layout, or if the queue is stored in shards
     */
    static QueueType resolve(UnifiedJedis jedis, RedisKeys keys, QueueType given) {
        String shards = jedis.get(keys.key("shards"));
        if (shards != null && !shards.equals("1")) {
            throw new Main.Failure("queue '" + keys.name() + "' is stored in " + Text.escape(shards) + " shards, as "
                    + keys.key("shards") + " records; the operator commands read unsharded queues only, nothing was"
                    + " changed");
        }
        Map<String, String> found = new LinkedHashMap<>();
        for (String part : PARTS) {
            String type = jedis.type(keys.key(part));
            if (!type.equals("none")) {
                found.put(part, type);
            }
        }
        if (found.isEmpty()) {
            if (given != null) {
                return given;
            }
            Set<String> known = knownQueues(jedis, keys.prefix());
            throw new Main.Failure("no queue named '" + keys.name() + "' under prefix '" + keys.prefix() + "'"
                    + (known.isEmpty()
                            ? " (no queues found under that prefix)"
                            : "; queues found: " + String.join(", ", known)));
        }
        Set<QueueType> fits = EnumSet.noneOf(QueueType.class);
        for (QueueType t : OWN.keySet()) {
            if (misfit(t, found, keys) == null) {
                fits.add(t);
            }
        }
        if (found.containsKey("layout")) {
            // the queue's own record of its type; the other keys must agree with it
            String recorded = jedis.get(keys.key("layout"));
            QueueType t = fits.stream()
                    .filter(f -> f.word().equals(recorded))
                    .findFirst()
                    .orElse(null);
            if (t == null) {
                throw new Main.Failure("queue '" + keys.name() + "' records its type as '" + Text.escape(recorded)
                        + "' in " + keys.key("layout") + ", which its other keys do not fit; refusing to touch them,"
                        + " nothing was changed");
            }
            fits.retainAll(Set.of(t));
        }
        if (fits.isEmpty()) {
            List<String> why = new ArrayList<>();
            for (QueueType t : OWN.keySet()) {
                why.add("not a " + t.word() + " queue, as " + misfit(t, found, keys));
            }
            throw new Main.Failure("the keys of queue '" + keys.name() + "' fit no known queue layout ("
                    + String.join("; ", why) + "); refusing to touch them, nothing was changed");
        }
        if (given != null) {
            if (!fits.contains(given)) {
                String why = misfit(given, found, keys);
                if (why == null) {
                    why = keys.key("layout") + " says " + fits.iterator().next().word();
                }
                throw new Main.Usage(
                        "--type " + given.word() + " contradicts the keys of queue '" + keys.name() + "', which are a "
                                + fits.iterator().next().word() + " queue's (" + why + "); nothing was changed");
            }
            return given;
        }
        if (fits.size() == 1) {
            return fits.iterator().next();
        }
        throw new Main.Usage(
                "queue '" + keys.name() + "' has no ready, in-flight or delayed messages, so its keys do not tell"
                        + " whether it is a list or a delay queue: add --type list or --type zset; nothing was changed");
    }

    /** Why the keys found are not those of a {@code type} queue ("K is a list"), or null if they are. */
    private static String misfit(QueueType type, Map<String, String> found, RedisKeys keys) {
        for (Map.Entry<String, String> e : found.entrySet()) {
            String allowed = SHARED.getOrDefault(e.getKey(), OWN.get(type).get(e.getKey()));
            if (!e.getValue().equals(allowed)) {
                return keys.key(e.getKey()) + " is a " + e.getValue();
            }
        }
        return null;
    }

    /** Names of queues under {@code prefix}, from a bounded SCAN, for "no queue named ...". */
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
}
