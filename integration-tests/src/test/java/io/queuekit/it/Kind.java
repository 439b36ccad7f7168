package io.queuekit.it;

import io.queuekit.Codec;
import io.queuekit.MessageQueue;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.redis.RedisQueueBuilder;
import java.time.Duration;
import java.util.function.UnaryOperator;
import redis.clients.jedis.UnifiedJedis;

/** Every queue transport, Redis and in-memory, with its builder's settings behind one face. */
enum Kind {
    REDIS_LIST_AT_LEAST_ONCE(Transport.LIST_AT_LEAST_ONCE),
    REDIS_LIST_AT_MOST_ONCE(Transport.LIST_AT_MOST_ONCE),
    REDIS_ZSET(Transport.ZSET),
    IN_MEMORY(null),
    IN_MEMORY_AT_MOST_ONCE(null),
    IN_MEMORY_DELAY(null);

    static final int MAX_PAYLOAD = 1024;
    static final Duration VISIBILITY = Duration.ofMinutes(10);

    final Transport transport;

    Kind(Transport transport) {
        this.transport = transport;
    }

    boolean redis() {
        return transport != null;
    }

    boolean delays() {
        return this == REDIS_ZSET || this == IN_MEMORY_DELAY;
    }

    boolean atLeastOnce() {
        return this != REDIS_LIST_AT_MOST_ONCE && this != IN_MEMORY_AT_MOST_ONCE;
    }

    /** The queue the catalogue uses: UTF-8 payloads of at most {@link #MAX_PAYLOAD} bytes, long leases. */
    MessageQueue<String> queue(UnifiedJedis client, String name) {
        return configured(client, name, Settings.defaults());
    }

    /** Builds with the given settings; each value goes through the builder's own setter. */
    MessageQueue<String> configured(UnifiedJedis client, String name, Settings s) {
        if (redis()) {
            UnaryOperator<RedisQueueBuilder<String, ?>> apply = b -> {
                b.visibilityTimeout(s.visibility)
                        .maxAttempts(s.maxAttempts)
                        .maxPayloadBytes(s.maxPayloadBytes)
                        .blockTimeout(s.blockTimeout)
                        .deadLetterRetention(s.deadLetterRetention);
                if (s.keyPrefix != null) {
                    b.keyPrefix(s.keyPrefix);
                }
                return b;
            };
            return transport.build(client, name, Codec.utf8(), apply);
        }
        switch (this) {
            case IN_MEMORY:
            case IN_MEMORY_AT_MOST_ONCE:
                return InMemoryMessageQueue.<String>builder(name)
                        .codec(Codec.utf8())
                        .guarantee(this == IN_MEMORY ? Guarantee.AT_LEAST_ONCE : Guarantee.AT_MOST_ONCE)
                        .visibilityTimeout(s.visibility)
                        .maxAttempts(s.maxAttempts)
                        .maxPayloadBytes(s.maxPayloadBytes)
                        .deadLetterRetention(s.deadLetterRetention)
                        .build();
            default:
                return InMemoryDelayQueue.<String>builder(name)
                        .codec(Codec.utf8())
                        .visibilityTimeout(s.visibility)
                        .maxAttempts(s.maxAttempts)
                        .maxPayloadBytes(s.maxPayloadBytes)
                        .deadLetterRetention(s.deadLetterRetention)
                        .build();
        }
    }

    /** Builder settings; Redis-only ones (block timeout, key prefix) are ignored in memory. */
    record Settings(
            Duration visibility,
            int maxAttempts,
            int maxPayloadBytes,
            Duration blockTimeout,
            String keyPrefix,
            int deadLetterRetention) {
        static Settings defaults() {
            return new Settings(VISIBILITY, 5, MAX_PAYLOAD, Duration.ofMillis(200), null, 100);
        }

        Settings visibility(Duration d) {
            return new Settings(d, maxAttempts, maxPayloadBytes, blockTimeout, keyPrefix, deadLetterRetention);
        }

        Settings maxAttempts(int n) {
            return new Settings(visibility, n, maxPayloadBytes, blockTimeout, keyPrefix, deadLetterRetention);
        }

        Settings maxPayloadBytes(int n) {
            return new Settings(visibility, maxAttempts, n, blockTimeout, keyPrefix, deadLetterRetention);
        }

        Settings blockTimeout(Duration d) {
            return new Settings(visibility, maxAttempts, maxPayloadBytes, d, keyPrefix, deadLetterRetention);
        }

        Settings keyPrefix(String p) {
            return new Settings(visibility, maxAttempts, maxPayloadBytes, blockTimeout, p, deadLetterRetention);
        }

        Settings deadLetterRetention(int n) {
            return new Settings(visibility, maxAttempts, maxPayloadBytes, blockTimeout, keyPrefix, n);
        }
    }
}
