package io.queuekit.redis.internal;

import io.queuekit.internal.Checks;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Key names for one queue or channel: {@code <prefix>:{<name>}:<part>}. The name sits in a hash
 * tag so that every key of one queue lands in one Redis Cluster slot, which lets one Lua script
 * touch them all; scripts receive every key through KEYS and never build a key name themselves.
 * Names and prefixes hold only letters, digits and {@code . _ - :}, so a name cannot break out of
 * its hash tag.
 */
public final class RedisKeys {
    /** The prefix used when none is configured. */
    public static final String DEFAULT_PREFIX = "queuekit";

    private final String prefix;
    private final String name;

    private RedisKeys(String prefix, String name) {
        this.prefix = prefix;
        this.name = name;
    }

    /**
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
        return new RedisKeys(prefix, Checks.name(name));
    }

    public String prefix() {
        return prefix;
    }

    public String name() {
        return name;
    }

    /** {@code <prefix>:{<name>}}: the base of every key, and the channel name for pub/sub. */
    public String base() {
        return prefix + ":{" + name + "}";
    }

    /** {@code <prefix>:{<name>}:<part>}. */
    public String key(String part) {
        return base() + ":" + part;
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
