package io.queuekit.redis.list;

import io.queuekit.Codec;
import io.queuekit.Semantics.Guarantee;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import redis.clients.jedis.UnifiedJedis;

/** Queues for the tests beyond the contract: unique names, short leases and block timeouts. */
final class Queues {
    static final Duration LEASE = Duration.ofSeconds(1);
    static final Duration BLOCK = Duration.ofMillis(200);

    private Queues() {}

    static String unique(String what) {
        return (what + "-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }

    static RedisListQueue<String> strings(UnifiedJedis client, String name, Guarantee guarantee) {
        return RedisListQueue.builder(client, name, Codec.utf8())
                .guarantee(guarantee)
                .visibilityTimeout(LEASE)
                .blockTimeout(BLOCK)
                .build();
    }

    /** A key of the queue, as the default prefix names it. */
    static String key(String name, String part) {
        return "queuekit:{" + name + "}:" + part;
    }
}
