package io.queuekit.cli;

import io.queuekit.redis.internal.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * The next waiting messages of a queue, read straight from its keys without taking them: the
 * queues' API has no peek. Knows the storage formats: the list queue's envelopes
 * {@code "<id> <attempt> <enqueued ms> <payload>"} in {@code ready}, taken from the right end; the
 * delay queue's ids in the {@code ready} ZSET scored {@code (due ms - 2025-01-01) * 4096 + tie},
 * with bodies {@code "<enqueued ms>:<payload>"} in {@code body}. What does not parse is shown as
 * it is stored, never trusted.
 */
final class Stored {
    private static final long ZSET_EPOCH_MS = 1735689600000L;
    private static final int ZSET_TIE = 4096;

    private Stored() {}

    /**
     * One waiting message; a field the stored bytes did not give is null.
     *
     * @param attempt the attempt its next delivery will be (list queue)
     * @param due when it falls due (delay queue)
     * @param payload the payload, or the whole stored entry when it could not be read
     */
    record Message(String id, Integer attempt, Instant due, Instant sent, byte[] payload, boolean readable) {}

    static List<Message> next(UnifiedJedis jedis, RedisKeys keys, QueueType type, int limit) {
        List<Message> out = new ArrayList<>();
        if (type == QueueType.LIST) {
            List<byte[]> entries = jedis.lrange(keys.keyBytes("ready"), -limit, -1);
            for (int i = entries.size() - 1; i >= 0; i--) {
                out.add(envelope(entries.get(i)));
            }
        } else {
            byte[] bodyKey = keys.keyBytes("body");
            for (Tuple t : jedis.zrangeWithScores(keys.keyBytes("ready"), 0, limit - 1)) {
                Instant due = Instant.ofEpochMilli((long) Math.floor(t.getScore() / ZSET_TIE) + ZSET_EPOCH_MS);
                out.add(body(t.getElement(), due, jedis.hget(bodyKey, t.getBinaryElement())));
            }
        }
        return out;
    }

    /** {@code "<id> <attempt> <enqueued ms> <payload>"}. */
    private static Message envelope(byte[] e) {
        int[] spaces = new int[3];
        int found = 0;
        for (int i = 0; i < e.length && found < 3; i++) {
            if (e[i] == ' ') {
                spaces[found++] = i;
            }
        }
        if (found == 3 && spaces[0] > 0) {
            Long attempt = number(e, spaces[0] + 1, spaces[1]);
            Long sent = number(e, spaces[1] + 1, spaces[2]);
            if (attempt != null && sent != null && attempt <= Integer.MAX_VALUE) {
                return new Message(new String(e, 0, spaces[0], StandardCharsets.UTF_8), attempt.intValue(), null,
                        Instant.ofEpochMilli(sent), Arrays.copyOfRange(e, spaces[2] + 1, e.length), true);
            }
        }
        return new Message(null, null, null, null, e, false);
    }

    /** {@code "<enqueued ms>:<payload>"}, or no body at all. */
    private static Message body(String id, Instant due, byte[] body) {
        if (body == null) {
            return new Message(id, null, due, null, null, true);
        }
        for (int i = 0; i < body.length; i++) {
            if (body[i] == ':') {
                Long sent = number(body, 0, i);
                if (sent != null) {
                    return new Message(id, null, due, Instant.ofEpochMilli(sent), Arrays.copyOfRange(body, i + 1, body.length), true);
                }
                break;
            }
        }
        return new Message(id, null, due, null, body, false);
    }

    /** The decimal digits in {@code b[from, to)}, or null if they are not a plausible number. */
    private static Long number(byte[] b, int from, int to) {
        if (to <= from || to - from > 15) {
            return null;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return null;
            }
            n = n * 10 + (b[i] - '0');
        }
        return n;
    }
}
