package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Semantics;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.RedisClient;

/** The implementations under test, by name: ours and the peers of the issue. */
final class Impls {
    static final String LIST_ALO = "queuekit-list-alo";
    static final String LIST_ALO_POLL = "queuekit-list-alo-poll";
    static final String LIST_AMO = "queuekit-list-amo";
    static final String JEDIS_LIST = "jedis-list";
    static final String REDISSON_QUEUE = "redisson-blockingqueue";
    static final String ZSET = "queuekit-zset";
    /** The zset queue storing by {@code scheduleEach}, in the scenario that builds its queue itself. */
    static final String ZSET_EACH = "queuekit-zset-each";

    static final String REDISSON_DELAYED = "redisson-delayedqueue";
    static final String ZSET_POLLING = "zset-polling";
    static final String ZSET_LUA = "zset-lua-claim";
    static final String ZSET_BATCH = "zset-batch-claim";
    static final String PUBSUB = "queuekit-pubsub";
    static final String JEDIS_PUBSUB = "jedis-pubsub";
    /** Our durable topic on a Redis stream: one group per receiver, consumed with {@code consume()}. */
    static final String STREAM_TOPIC = "queuekit-stream-topic";
    /** Redisson's {@code RReliableTopic}: one subscriber (topic object) per receiver. */
    static final String REDISSON_RELIABLE_TOPIC = "redisson-reliabletopic";

    static final String INMEMORY_ALO = "queuekit-inmemory-alo";
    static final String INMEMORY_AMO = "queuekit-inmemory-amo";
    /** BullMQ in a child {@code node} process, beside ours in the scenarios of its shapes. */
    static final String BULLMQ = "bullmq";
    /** The list queue at least once on a cluster of its own, unsharded: one master holds it. */
    static final String LIST_ALO_CLUSTER = "queuekit-list-alo-cluster";
    /** The same with {@code shards(3)}: one shard per master. */
    static final String LIST_ALO_SHARDS = "queuekit-list-alo-shards3";

    static final List<String> NAMES = List.of(
            LIST_ALO,
            LIST_ALO_POLL,
            LIST_AMO,
            JEDIS_LIST,
            REDISSON_QUEUE,
            ZSET,
            REDISSON_DELAYED,
            ZSET_POLLING,
            ZSET_LUA,
            ZSET_BATCH,
            ZSET_EACH,
            PUBSUB,
            JEDIS_PUBSUB,
            STREAM_TOPIC,
            REDISSON_RELIABLE_TOPIC,
            INMEMORY_ALO,
            INMEMORY_AMO,
            LIST_ALO_CLUSTER,
            LIST_ALO_SHARDS,
            BULLMQ);

    /** Ours that promise at-least-once: any loss or duplicate from these is a bug. */
    private static final Set<String> AT_LEAST_ONCE = Set.of(
            LIST_ALO, LIST_ALO_POLL, ZSET, ZSET_EACH, INMEMORY_ALO, LIST_ALO_CLUSTER, LIST_ALO_SHARDS, STREAM_TOPIC);

    /**
     * Our managed consumers as an application writes them: {@code batch} 1 means
     * {@code consume()} with defaults (which fetch more than one while messages wait), else that
     * batch size.
     */
    static ConsumeOptions consumeOptions(int count, int batch) {
        ConsumeOptions.Builder b = ConsumeOptions.builder().concurrency(count);
        return (batch == 1 ? b : b.batchSize(batch)).build();
    }

    private Impls() {}

    /** Ours that run in this JVM, with no Redis to measure. */
    static boolean inMemory(String impl) {
        return impl.equals(INMEMORY_ALO) || impl.equals(INMEMORY_AMO);
    }

    static boolean atLeastOnce(String impl) {
        return AT_LEAST_ONCE.contains(impl);
    }

    static QueueUnderTest queue(String impl, String uri, String name) {
        return switch (impl) {
            case JEDIS_LIST -> new JedisListPeer(uri, name);
            case REDISSON_QUEUE -> new RedissonQueuePeer(uri, name);
            case LIST_ALO, LIST_ALO_POLL, LIST_AMO -> {
                RedisClient client = Clients.jedis(uri);
                RedisListQueue.Builder<String> b = RedisListQueue.builder(client, name, Codec.utf8());
                if (impl.equals(LIST_AMO)) {
                    b.guarantee(Semantics.Guarantee.AT_MOST_ONCE);
                }
                yield new QueuekitQueue(b.build(), client, impl.equals(LIST_ALO_POLL));
            }
            case INMEMORY_ALO, INMEMORY_AMO ->
                new QueuekitQueue(
                        InMemoryMessageQueue.<String>builder(name)
                                .guarantee(
                                        impl.equals(INMEMORY_ALO)
                                                ? Semantics.Guarantee.AT_LEAST_ONCE
                                                : Semantics.Guarantee.AT_MOST_ONCE)
                                .build(),
                        null);
            default -> throw new IllegalArgumentException("not a queue implementation: " + impl);
        };
    }

    static DelayUnderTest delay(String impl, String uri, String name) {
        return switch (impl) {
            case REDISSON_DELAYED -> new RedissonDelayedPeer(uri, name);
            case ZSET_POLLING -> new ZsetRecipePeer(uri, name, ZsetRecipePeer.Claim.POLLING);
            case ZSET_LUA -> new ZsetRecipePeer(uri, name, ZsetRecipePeer.Claim.LUA);
            case ZSET_BATCH -> new ZsetBatchPeer(uri, name);
            case ZSET -> {
                RedisClient client = Clients.jedis(uri);
                yield new QueuekitDelay(
                        RedisDelayQueue.builder(client, name, Codec.utf8()).build(), client);
            }
            default -> throw new IllegalArgumentException("not a delay implementation: " + impl);
        };
    }

    static BroadcastUnderTest broadcast(String impl, String uri, String name) {
        return switch (impl) {
            case JEDIS_PUBSUB -> new JedisPubSubPeer(uri, name);
            case REDISSON_RELIABLE_TOPIC -> new RedissonReliableTopicPeer(uri, name);
            case STREAM_TOPIC -> {
                RedisClient client = Clients.jedis(uri);
                yield new QueuekitTopic(
                        RedisStreamTopic.builder(client, name, Codec.utf8()).build(), client);
            }
            case PUBSUB -> {
                RedisClient client = Clients.jedis(uri);
                yield new QueuekitBroadcast(
                        RedisBroadcaster.builder(client, name, Codec.utf8()).build(), client);
            }
            default -> throw new IllegalArgumentException("not a broadcast implementation: " + impl);
        };
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            System.err.println("bench: closing " + c + " failed: " + e);
        }
    }
}
