package io.queuekit.redis.internal;

import io.queuekit.MessageId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Which shard of a sharded queue a message goes to, and where one is found by its id. A message
 * goes to the shard of its key ({@code shardBy}), by a stable hash of the key's text, or, without
 * a key, to the next shard in turn. Generated ids end with {@code ~<shard>}, so that a message is
 * found by its id alone; a caller-chosen id (delay queue) lives in the shard its own hash names,
 * unless messages go by key: then it may be in any shard.
 *
 * @param <T> the payload type
 */
public final class Sharding<T> {
    /** Most shards a queue may have. */
    public static final int MAX_SHARDS = 256;

    private final int count;
    private final Function<? super T, ?> key;
    private final AtomicInteger turn = new AtomicInteger();

    /** @param key the payload's shard key; null to spread messages over the shards in turn */
    public Sharding(int count, Function<? super T, ?> key) {
        if (count < 2 || count > MAX_SHARDS) {
            throw new IllegalArgumentException("shards of a sharded queue must be 2 to " + MAX_SHARDS + ": " + count);
        }
        this.count = count;
        this.key = key;
    }

    public int count() {
        return count;
    }

    /** Whether messages go to the shard of their key. */
    public boolean keyed() {
        return key != null;
    }

    /** The next shard in turn. */
    public int next() {
        return Math.floorMod(turn.getAndIncrement(), count);
    }

    /** The shard of a message: of its key, or the next in turn. */
    public int of(T payload) {
        return key == null ? next() : ofKey(keyOf(payload));
    }

    /**
     * The shard of each payload by its key, every key computed (and refused if null) before the
     * caller stores anything.
     */
    public int[] ofEach(List<? extends T> payloads) {
        int[] shards = new int[payloads.size()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = ofKey(keyOf(payloads.get(i)));
        }
        return shards;
    }

    private Object keyOf(T payload) {
        return Objects.requireNonNull(key.apply(payload), "the shardBy key of a payload is null");
    }

    /** The shard of a key: FNV-1a (64 bits) of the UTF-8 of its {@code toString()}, modulo the count. */
    int ofKey(Object key) {
        return Math.floorMod(hash(key.toString()), count);
    }

    /** FNV-1a, 64 bits, of the text's UTF-8: the same in every JVM and every run. */
    static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /**
     * The shard a caller-chosen id is stored in: of its hash, or, where messages go by key, the
     * shard of the payload's key ({@code payload}).
     */
    public int ofChosenId(MessageId id, T payload) {
        return key == null ? ofKey(id.value()) : ofKey(keyOf(payload));
    }

    /**
     * The shard that holds the message {@code id}, as far as the id tells: the shard a generated
     * id names, or the hash of a chosen id where messages do not go by key; -1 if it may be in
     * any shard (a chosen id of a keyed queue, or an id no shard of this queue generated).
     */
    public int home(MessageId id) {
        String v = id.value();
        if (!id.isGenerated()) {
            return key == null ? ofKey(v) : -1;
        }
        int mark = v.lastIndexOf('~');
        if (mark < 0 || mark == v.length() - 1 || v.length() - mark > 4) {
            return -1;
        }
        int shard = 0;
        for (int i = mark + 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            shard = shard * 10 + (c - '0');
        }
        return shard < count && String.valueOf(shard).equals(v.substring(mark + 1)) ? shard : -1;
    }

    /** What shard {@code index} of {@code count} appends to the ids it generates: nothing for one shard. */
    static String idSuffix(int index, int count) {
        return count == 1 ? "" : "~" + index;
    }
}
