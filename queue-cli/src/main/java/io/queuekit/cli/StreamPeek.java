package io.queuekit.cli;

import io.queuekit.Headers;
import io.queuekit.SerializationException;
import io.queuekit.internal.HeaderFrame;
import io.queuekit.redis.internal.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingEntry;
import redis.clients.jedis.resps.Tuple;

/**
 * What {@code peek --group} shows of a stream topic's group, read with plain read-only commands
 * (the keys as queue-redis-stream's {@code storage.lua} describes them): its pending entries, in
 * flight or waiting (a retry, or a lease that expired), soonest first, then the next entries it
 * has not read. Nothing is written; the commands are separate, so a group that consumers work on
 * meanwhile may show a message in two states or in none.
 */
final class StreamPeek {
    /** What a row is: a lease held now, a pending entry waiting to be handed out again, or unread. */
    enum State {
        IN_FLIGHT("in-flight"),
        WAITING("waiting"),
        UNREAD("unread");

        final String word;

        State(String word) {
            this.word = word;
        }
    }

    /**
     * One message of the group.
     *
     * @param id its message id ({@code @<stream id>} for a message published once), null if the
     *     stream no longer holds its entry (a hard cap removed it)
     * @param attempt the attempt in flight, or the one its next delivery will be
     * @param at the lease's deadline (in flight), the due time (waiting); null for unread
     * @param sentAt when it was published; null if the entry is gone
     * @param payload the payload as stored, null if the entry is gone or its frame is malformed
     */
    @SuppressWarnings("ArrayRecordComponent") // shown, never compared
    record Row(
            State state,
            String streamId,
            String id,
            long attempt,
            Instant at,
            Instant sentAt,
            byte[] payload,
            Headers headers) {}

    private StreamPeek() {}

    /**
     * At most {@code limit} messages of {@code group}, which exists: pending ones first (at most
     * {@code limit} read from each of its two sorted sets), then unread ones after its
     * last-delivered id (at most {@code limit} entries read; those addressed to another group are
     * skipped, so fewer may show).
     */
    static List<Row> read(UnifiedJedis jedis, RedisKeys topic, String group, int limit) {
        String stream = topic.key("stream");
        RedisKeys keys = topic.within(group, "g:" + group, Map.of());
        List<Row> rows = new ArrayList<>();
        List<Entry<Tuple, State>> pending = new ArrayList<>();
        jedis.zrangeWithScores(keys.key("inflight"), 0, limit - 1L)
                .forEach(t -> pending.add(Map.entry(t, State.IN_FLIGHT)));
        jedis.zrangeWithScores(keys.key("delayed"), 0, limit - 1L)
                .forEach(t -> pending.add(Map.entry(t, State.WAITING)));
        pending.sort(Comparator.comparingDouble(e -> e.getKey().getScore()));
        for (Entry<Tuple, State> e : pending.subList(0, Math.min(limit, pending.size()))) {
            String sid = e.getKey().getElement();
            List<StreamPendingEntry> p = jedis.xpending(stream, group, XPendingParams.xPendingParams(sid, sid, 1));
            if (p.isEmpty()) {
                continue; // settled meanwhile
            }
            long count = p.get(0).getDeliveredTimes();
            Instant at = Instant.ofEpochMilli((long) e.getKey().getScore());
            rows.add(row(
                    e.getValue(),
                    sid,
                    e.getValue() == State.IN_FLIGHT ? count : count + 1,
                    at,
                    entry(jedis, stream, sid)));
        }
        String last = lastDelivered(jedis, stream, group);
        for (Object o : jedis.xrange(bytes(stream), bytes("(" + last), bytes("+"), limit)) {
            if (rows.size() >= limit) {
                break;
            }
            List<?> entry = (List<?>) o;
            Map<String, byte[]> fields = fields((List<?>) entry.get(1));
            byte[] addressed = fields.get("g");
            if (addressed == null || new String(addressed, StandardCharsets.UTF_8).equals(group)) {
                rows.add(row(State.UNREAD, text(entry.get(0)), 1, null, fields));
            }
        }
        return rows;
    }

    private static String lastDelivered(UnifiedJedis jedis, String stream, String group) {
        for (StreamGroupInfo g : jedis.xinfoGroups(stream)) {
            if (g.getName().equals(group)) {
                return g.getLastDeliveredId().toString();
            }
        }
        throw new Main.Failure("the group '" + Text.escape(group) + "' was deleted meanwhile");
    }

    /** The fields of entry {@code sid}, or null if the stream no longer holds it. */
    private static Map<String, byte[]> entry(UnifiedJedis jedis, String stream, String sid) {
        List<Object> found = jedis.xrange(bytes(stream), bytes(sid), bytes(sid), 1);
        return found.isEmpty() ? null : fields((List<?>) ((List<?>) found.get(0)).get(1));
    }

    private static Row row(State state, String sid, long attempt, Instant at, Map<String, byte[]> fields) {
        if (fields == null) {
            return new Row(state, sid, null, attempt, at, null, null, Headers.empty());
        }
        byte[] i = fields.get("i");
        byte[] e = fields.get("e");
        String id = i != null ? new String(i, StandardCharsets.UTF_8) : "@" + sid;
        long sentMillis =
                Long.parseLong(e != null ? new String(e, StandardCharsets.UTF_8) : sid.substring(0, sid.indexOf('-')));
        byte[] section = fields.getOrDefault("b", new byte[0]);
        try {
            HeaderFrame.Read read = HeaderFrame.read(section);
            return new Row(
                    state, sid, id, attempt, at, Instant.ofEpochMilli(sentMillis), read.payload(), read.headers());
        } catch (SerializationException ex) {
            return new Row(state, sid, id, attempt, at, Instant.ofEpochMilli(sentMillis), null, Headers.empty());
        }
    }

    private static Map<String, byte[]> fields(List<?> list) {
        Map<String, byte[]> out = new HashMap<>();
        for (int k = 0; k + 1 < list.size(); k += 2) {
            out.put(text(list.get(k)), (byte[]) list.get(k + 1));
        }
        return out;
    }

    private static String text(Object o) {
        return new String((byte[]) o, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
