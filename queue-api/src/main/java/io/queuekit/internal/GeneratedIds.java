package io.queuekit.internal;

import io.queuekit.MessageId;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Message ids a queue generates in Java: the mark {@value MessageId#GENERATED_MARK}, a prefix, a
 * counter in base 36 and a suffix (a shard's {@code ~<shard>} on Redis), the kind the Redis scripts
 * make from the server's counter ({@code new_id.lua}). Callers may not choose ids that begin with
 * the mark, so generated ids meet only each other: the easy thing to get wrong is two generators
 * counting for one queue, which hand out the same ids unless their prefixes differ
 * ({@link #ofInstance}). Thread-safe.
 */
public final class GeneratedIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] prefix;
    private final byte[] suffix;
    private final AtomicLong counter = new AtomicLong();

    private GeneratedIds(String prefix, String suffix) {
        this.prefix = (MessageId.GENERATED_MARK + prefix).getBytes(StandardCharsets.ISO_8859_1);
        this.suffix = suffix.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code @1}, {@code @2}, ...: for the one generator of a queue that holds all its ids (in memory). */
    public static GeneratedIds counting() {
        return new GeneratedIds("", "");
    }

    /**
     * {@code @<12 random base-36 characters>.<counter><suffix>}: for each of many queue objects
     * that generate ids for one queue without asking each other or the server (about 62 random
     * bits apart). The dot keeps them apart from ids the server's counter makes.
     *
     * @param suffix empty, or a shard's {@code ~<shard>}
     */
    public static GeneratedIds ofInstance(String suffix) {
        StringBuilder sb = new StringBuilder(13);
        for (int i = 0; i < 12; i++) {
            sb.append(Character.forDigit(RANDOM.nextInt(36), 36));
        }
        return new GeneratedIds(sb.append('.').toString(), suffix);
    }

    /** The next id. */
    public MessageId next() {
        long n = counter.incrementAndGet();
        int digits = 1;
        for (long m = n / 36; m > 0; m /= 36) {
            digits++;
        }
        byte[] id = new byte[prefix.length + digits + suffix.length];
        System.arraycopy(prefix, 0, id, 0, prefix.length);
        for (int at = prefix.length + digits - 1; at >= prefix.length; at--, n /= 36) {
            id[at] = (byte) Character.forDigit((int) (n % 36), 36);
        }
        System.arraycopy(suffix, 0, id, prefix.length + digits, suffix.length);
        return MessageId.of(new String(id, StandardCharsets.ISO_8859_1));
    }
}
