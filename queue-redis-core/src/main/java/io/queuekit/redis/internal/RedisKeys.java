package io.queuekit.redis.internal;

import io.queuekit.internal.Checks;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Key names for one queue or channel: {@code <prefix>:{<name>}:<part>}. The name sits in a hash
 * tag so that every key of one queue lands in one Redis Cluster slot, which lets one Lua script
 * touch them all; scripts receive every key through KEYS and never build a key name themselves.
 * Names and prefixes hold only letters, digits and {@code . _ - :}, so a name cannot break out of
 * its hash tag.
 *
 * <p>A queue built with {@code shards(n)} above 1 keeps each shard's keys under a tag of its own,
 * {@code <prefix>:{<name>~<k>}:<part>} ({@link #shard}): {@code ~} cannot occur in a name, so no
 * shard's tag is another queue's.
 */
public final class RedisKeys {
    /** The prefix used when none is configured. */
    public static final String DEFAULT_PREFIX = "queuekit";

    /** The hash slots of every Redis Cluster. */
    static final int SLOTS = 16384;

    private final String prefix;
    private final String name;
    private final String tag;
    /** Where the parts of a member's keys go, {@code :<infix>} after the base; empty for none. */
    private final String infix;
    /** Parts kept at the base under another part's name, whatever the infix ({@link #within}). */
    private final Map<String, String> shared;

    private RedisKeys(String prefix, String name, String tag) {
        this(prefix, name, tag, "", Map.of());
    }

    private RedisKeys(String prefix, String name, String tag, String infix, Map<String, String> shared) {
        this.prefix = prefix;
        this.name = name;
        this.tag = tag;
        this.infix = infix;
        this.shared = shared;
    }

    /**
     * The keys of the queue or channel {@code name} under {@code prefix}.
     *
     * @throws IllegalArgumentException if the prefix or name holds anything but letters, digits and
     *     {@code . _ - :}, is empty, or is longer than 100 characters
     */
    public static RedisKeys of(String prefix, String name) {
        Objects.requireNonNull(prefix, "key prefix");
        try {
            Checks.name(prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("key prefix: " + e.getMessage(), e);
        }
        String checked = Checks.name(name);
        return new RedisKeys(prefix, checked, checked);
    }

    /**
     * The keys of shard {@code index} of a queue of {@code count} shards: these keys themselves for
     * a single shard, else those under the tag {@link #shardTag} of this one's tag; a member's keys
     * ({@link #within}) stay the member's, in the shard's tag.
     *
     * @throws IllegalStateException if these are a shard's keys already
     */
    public RedisKeys shard(int index, int count) {
        if (count == 1) {
            return this;
        }
        if (tag.indexOf('~') >= 0) {
            throw new IllegalStateException("the keys of shard " + tag + " cannot be sharded again");
        }
        return new RedisKeys(prefix, name, shardTag(tag, index, count), infix, shared);
    }

    /**
     * The hash tag of shard {@code index} of {@code count} (2 or more): {@code <name>~<k>}, with
     * {@code k} the smallest number from 0 whose tag hashes (CRC16, as Redis Cluster does) to a slot
     * in the {@code index}-th of {@code count} equal ranges of the 16384 slots, keeping one slot
     * clear of either end of the range. It depends on the name and the count alone, not on any
     * server: a cluster whose masters own equal contiguous ranges of slots, as
     * {@code redis-cli --cluster create} assigns them (whichever way it rounds a boundary), holds
     * one shard on each master when {@code count} is the number of masters.
     */
    static String shardTag(String name, int index, int count) {
        if (count < 2 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + " of " + count);
        }
        // [first, last] inside the index-th range, one slot clear of either boundary
        int first = (int) ((long) index * SLOTS / count) + 1;
        int last = (int) ((long) (index + 1) * SLOTS / count) - 2;
        for (int k = 0; ; k++) {
            String tag = name + "~" + k;
            int slot = JedisClusterCRC16.getSlot(tag);
            if (slot >= first && slot <= last) {
                return tag;
            }
        }
    }

    /**
     * The keys of a member of this queue or channel (a consumer group of a stream) named
     * {@code memberName}: {@code <prefix>:{<tag>}:<infix>:<part>}, in this one's hash tag, except
     * the parts {@code shared} maps, which are this one's {@code <prefix>:{<tag>}:<mapped part>}
     * for every member (a group's {@code ready} is its topic's stream). An empty {@code infix}
     * leaves the other parts where this one's are.
     *
     * @param memberName the member's name, which {@link #name()} then returns
     * @param infix letters, digits, {@code . _ - : ~}; empty for none
     */
    public RedisKeys within(String memberName, String infix, Map<String, String> shared) {
        Objects.requireNonNull(memberName, "memberName");
        if (!infix.matches("[A-Za-z0-9._:~-]*")) {
            throw new IllegalArgumentException("not a key infix: " + infix);
        }
        return new RedisKeys(prefix, memberName, tag, infix, Map.copyOf(shared));
    }

    public String prefix() {
        return prefix;
    }

    /** The queue's name, the same for all its shards. */
    public String name() {
        return name;
    }

    /** The hash tag: the name, or for a shard of a sharded queue {@code <name>~<k>}. */
    public String tag() {
        return tag;
    }

    /**
     * What tells apart, in metrics, queues of this name: the key prefix; for a member of a queue or
     * channel ({@link #within} with an infix: a consumer group) the base of its owner's keys,
     * {@code <prefix>:{<tag>}}, so that same-named groups of two topics are counted apart.
     */
    public String metricsNamespace() {
        return infix.isEmpty() ? prefix : base();
    }

    /** {@code <prefix>:{<tag>}}: the base of every key, and the channel name for pub/sub. */
    public String base() {
        return prefix + ":{" + tag + "}";
    }

    /** {@code <prefix>:{<tag>}:<part>}. */
    public String key(String part) {
        String at = shared.get(part);
        if (at != null) {
            return base() + ":" + at;
        }
        return infix.isEmpty() ? base() + ":" + part : base() + ":" + infix + ":" + part;
    }

    /** {@link #key(String)} as UTF-8 bytes. */
    public byte[] keyBytes(String part) {
        return key(part).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return base();
    }
}
