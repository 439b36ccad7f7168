package io.queuekit.redis.pubsub;

import io.queuekit.Codec;
import io.queuekit.internal.BroadcastRuntime;
import redis.clients.jedis.UnifiedJedis;

/**
 * What every subscription of one broadcaster shares.
 *
 * @param connections where a subscription borrows its connection; null when Jedis lends it
 * @param reconnects the broadcaster's total, which each subscription's count adds to
 */
record Shared<T>(
        UnifiedJedis client,
        ConnectionSource connections,
        Sharding sharding,
        Heartbeat heartbeat,
        Settings settings,
        BroadcastRuntime<Subscriber<?>> runtime,
        Codec<T> codec,
        Reconnects reconnects) {}
