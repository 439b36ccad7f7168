package io.queuekit.redis.stream;

import io.queuekit.BroadcastListener;
import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.Position;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Checks;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.RedisQueueSettings;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link Topic} on a Redis STREAM: each message is one stream entry, kept for every consumer
 * group; each group is a Redis consumer group, whose consumers claim entries under leases, retry
 * and dead-letter them as on a message queue.
 *
 * <pre>{@code
 * RedisStreamTopic<OrderEvent> orders = RedisStreamTopic.builder(client, "orders", JacksonCodec.of(OrderEvent.class))
 *         .maxLength(1_000_000)                      // soft: never drops what a group has not acked
 *         .build();
 * ConsumerGroup<OrderEvent> billing = orders.group("billing");
 * billing.consume(d -> bill(d.payload()));
 * orders.publish(new OrderEvent(...));
 * }</pre>
 *
 * <p>Easy to get wrong: a group keeps every message until it acks it, so a group nobody consumes
 * any more holds back the soft retention ({@link Builder#maxLength}, {@link Builder#maxAge}) for
 * good; delete it ({@link #deleteGroup}), or set a {@linkplain Builder#hardMaxLength hard cap},
 * whose removals each group counts as {@link GroupInfo#missed()}. A group's object whose group is
 * deleted through this topic object is closed and refuses calls; one of another process fails its
 * next call with a {@link io.queuekit.QueueException} or {@link io.queuekit.TransportException}
 * naming the missing group. A group's {@link GroupInfo#lag()} (and the ready count of its
 * {@code stats()}) is the server's on Redis 7; on Redis 6.2, whose {@code XINFO GROUPS} has no lag,
 * it comes from counters the topic keeps; for a group created or replayed at a time or after an
 * id it is counted while at most 10,000 entries follow, else {@code -1}. Built with {@code shards(n)}, the topic keeps one stream per shard under
 * the shard's tag, each message in one of them, and its groups receive from all (order per key
 * with {@code shardBy}, none without; {@code docs/streams.md}, "Sharding"). The design: {@code docs/wake-up-protocol.md} (how a group's consumers wait)
 * and {@code docs/redis-scripts.md} (the keys).
 *
 * @param <T> the payload type
 */
public final class RedisStreamTopic<T> implements Topic<T> {
    static final String TRANSPORT = "redis-stream";
    static final Semantics TOPIC_SEMANTICS = new Semantics(
            TRANSPORT, Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.PUBLISH_ORDER, true, true, false);
    static final Semantics GROUP_SEMANTICS =
            new Semantics(TRANSPORT, Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.FIFO, true, false, false);
    private static final Logger LOG = LoggerFactory.getLogger(RedisStreamTopic.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    /** The keys every group of a topic shares, as the parts of the topic's keys they are. */
    private static final Map<String, String> SHARED = Map.of(
            "layout", "layout", "ready", "stream", "counts", "counts", "missed", "missed", "shards", "shards", "subs",
            "subs");

    private final UnifiedJedis jedis;
    private final QueueSetup<T> setup;
    private final RedisKeys keys;
    /** The topic's scripts; its runtime only runs them (the broadcast runtime says whether this is open). */
    private final RedisContext<T> topic;

    private final TopicShards<T> streams;
    private final Semantics semantics;
    private final Semantics groupSemantics;
    private final BroadcastRuntime<StreamSubscription<T>> broadcast;
    private final String consumer;
    private final Set<StreamGroup<T>> open = ConcurrentHashMap.newKeySet();
    /** Scripts on groups this object only inspects or deletes, by group name; never closed. */
    private final Map<String, GroupAdmin> admins = new ConcurrentHashMap<>();
    /** Its subscriptions' heartbeats; package-private for tests' shorter times. */
    final Heartbeats heartbeats;

    private RedisStreamTopic(Builder<T> b) {
        this.setup = QueueSetup.of(b);
        this.jedis = setup.client();
        RedisQueueSettings s = setup.settings();
        this.keys = s.keys();
        this.topic = new RedisContext<>(
                jedis,
                quiet(s).withKeys(keys.within(keys.name(), "", SHARED)),
                setup.codec(),
                TRANSPORT,
                RedisStreamTopic.class,
                StreamScripts.INCLUDES,
                setup.shards());
        this.streams = new TopicShards<>(
                topic, setup.sharded() ? setup.sharding() : null, b.maxLength, b.maxAge, b.hardMaxLength);
        Semantics.Ordering ordering = !setup.sharded()
                ? null
                : setup.shardBy() != null ? Semantics.Ordering.PER_KEY : Semantics.Ordering.NONE;
        this.semantics = ordering == null ? TOPIC_SEMANTICS : ordered(TOPIC_SEMANTICS, ordering);
        this.groupSemantics = ordering == null ? GROUP_SEMANTICS : ordered(GROUP_SEMANTICS, ordering);
        this.broadcast = new BroadcastRuntime<>(
                keys.name(),
                "topic " + keys.name(),
                s.metrics().observe(keys.name(), TRANSPORT, keys.prefix(), null),
                s.observations(),
                TRANSPORT,
                CLOSE_TIMEOUT,
                LOG);
        this.consumer = "c-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.heartbeats = new Heartbeats(
                this, topic.shards().stream().map(StreamScripts.Beat::new).toList());
    }

    /**
     * A builder for a topic named {@code name} (letters, digits, {@code . _ - :}) on {@code client},
     * with payloads encoded by {@code codec}.
     */
    public static <T> Builder<T> builder(UnifiedJedis client, String name, Codec<T> codec) {
        return new Builder<>(client, name, codec);
    }

    private static Semantics ordered(Semantics s, Semantics.Ordering ordering) {
        return new Semantics(TRANSPORT, s.guarantee(), ordering, s.retainedWithoutConsumers(), s.fanOut(), s.delays());
    }

    /** These settings without metrics or observations: for contexts that only run scripts. */
    private static RedisQueueSettings quiet(RedisQueueSettings s) {
        return new RedisQueueSettings(
                s.keys(),
                s.visibilityTimeout(),
                s.maxAttempts(),
                s.deadLetterRetention(),
                s.maxPayloadBytes(),
                s.blockTimeout(),
                s.claimBatch(),
                QueueMetrics.NONE,
                MessageObservations.NONE,
                s.replicas());
    }

    @Override
    public String name() {
        return keys.name();
    }

    // ---- publishing

    /** {@inheritDoc} One script: the entry, and the number of groups it is kept for. */
    @Override
    public long publish(T message, Headers headers) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(headers, "headers");
        broadcast.checkOpen();
        List<T> one = List.of(message);
        return broadcast.sending(1, added -> {
            TopicShards.Sent p = store(one, headers.withAll(added));
            broadcast.observer().sent(1);
            return p.groups();
        });
    }

    /**
     * {@inheritDoc} One script stores the whole batch, so it is stored entirely or not at all, and
     * no other publisher's message comes between its messages; on a sharded topic without
     * {@code shardBy} as well, on one shard. With {@code shardBy}, each shard's part is a script of
     * its own, in shard order: a failure midway can leave the parts of the shards before it stored.
     */
    @Override
    public long[] publishAll(Collection<? extends T> messages) {
        List<T> copy = Checks.payloads(messages);
        broadcast.checkOpen();
        if (copy.isEmpty()) {
            return new long[0];
        }
        return broadcast.sending(copy.size(), added -> {
            TopicShards.Sent p = store(copy, added);
            broadcast.observer().sent(copy.size());
            long[] out = new long[copy.size()];
            java.util.Arrays.fill(out, p.groups());
            return out;
        });
    }

    /** Encodes (checking every payload first) and appends to the stream; then trims if it is time. */
    TopicShards.Sent store(List<? extends T> payloads, Headers headers) {
        TopicShards.Sent sent = streams.publish(payloads, headers);
        heartbeats.afterPublish();
        return sent;
    }

    // ---- groups

    /**
     * {@inheritDoc} {@code XGROUP CREATE} at the position ({@code $} for the end), unless the group
     * exists; on a sharded topic on every shard, each unless it exists there (so a group a crash
     * left on some shards only is completed), in shard order, then shard 0 again. A group being
     * deleted (a {@link #deleteGroup} running, or stopped midway) is refused with a
     * {@link io.queuekit.QueueException}. The object is closed with this topic.
     */
    @Override
    public ConsumerGroup<T> group(String name, Position start) {
        GroupTerms.checkName(name);
        Objects.requireNonNull(start, "start");
        broadcast.checkOpen();
        return openGroup(name, start, false);
    }

    /** Opens group {@code name}, creating it at {@code start} if it does not exist. */
    StreamGroup<T> openGroup(String name, Position start, boolean subscription) {
        RedisQueueSettings s = setup.settings();
        if (subscription) {
            s = quiet(s);
        }
        RedisContext<T> context = new RedisContext<>(
                jedis,
                s.withKeys(groupKeys(name)),
                setup.codec(),
                TRANSPORT,
                RedisStreamTopic.class,
                StreamScripts.INCLUDES,
                streams.count());
        List<RedisContext<T>> shards = context.shards();
        List<StreamScripts.Start> starts = new ArrayList<>(shards.size());
        List<GroupAdmin.Creation> creates = new ArrayList<>(shards.size());
        for (int i = 0; i < shards.size(); i++) {
            starts.add(GroupTerms.start(start, i, shards.size())); // every position checked first
            creates.add(new StreamScripts.Create(shards.get(i))::run);
        }
        GroupAdmin.create(creates, name, starts);
        StreamGroup<T> g = new StreamGroup<>(this, name, context, consumer, streams.sharding());
        open.add(g);
        try {
            broadcast.checkOpen(); // a close that ran meanwhile missed it
        } catch (QueueClosedException e) {
            g.close();
            if (subscription) {
                // nothing else knows its random name: delete it, or it stays for good
                try {
                    deleteStored(name);
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
        return g;
    }

    private RedisKeys groupKeys(String group) {
        return keys.within(group, "g:" + group, SHARED);
    }

    /** A group object was closed. */
    void forget(StreamGroup<T> g) {
        open.remove(g);
    }

    /**
     * {@inheritDoc} One script for the names, then one per group for its counts; on a sharded
     * topic, as many per shard, the counts summed (a group on some shards only counted there).
     */
    @Override
    public List<GroupInfo> groups() {
        broadcast.checkOpen();
        List<String> names = streams.groupNames();
        List<GroupInfo> out = new ArrayList<>(names.size());
        for (String n : names) {
            List<StreamScripts.Info.Counts> each = new ArrayList<>();
            for (StreamScripts.Info info : admin(n).info) {
                each.add(info.run(io.queuekit.redis.internal.QueueScript.text(n)));
            }
            if (each.stream().anyMatch(StreamScripts.Info.Counts::exists)) {
                out.add(GroupTerms.info(n, GroupTerms.sum(each)));
            }
        }
        return out;
    }

    /**
     * {@inheritDoc} A script per 1,000 pending entries ({@code delete.lua}); on a sharded topic
     * the group is first marked as being deleted on every shard and unmarked at the end, so a
     * {@link #group} meanwhile is refused. This object's objects of the group are closed; another
     * process's fail their next call.
     */
    @Override
    public boolean deleteGroup(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith(StreamSubscription.PREFIX)) {
            GroupTerms.checkName(name);
        }
        broadcast.checkOpen();
        return deleteStored(name);
    }

    /** Deletes group {@code name} as stored, and closes this object's objects of it. */
    boolean deleteStored(String name) {
        for (StreamGroup<T> g : List.copyOf(open)) {
            if (g.name().equals(name)) {
                g.close();
            }
        }
        boolean existed = admin(name).delete(name);
        admins.remove(name);
        return existed;
    }

    GroupAdmin admin(String group) {
        if (admins.size() > 1000) {
            admins.clear(); // a cache: subscriptions come and go
        }
        return admins.computeIfAbsent(
                group,
                g -> new GroupAdmin(new RedisContext<>(
                        jedis,
                        quiet(setup.settings()).withKeys(groupKeys(g)),
                        setup.codec(),
                        TRANSPORT,
                        RedisStreamTopic.class,
                        StreamScripts.INCLUDES,
                        streams.count())));
    }

    /** {@inheritDoc} {@code XLEN}; on a sharded topic, of every shard's stream, summed. */
    @Override
    public long size() {
        broadcast.checkOpen();
        return streams.size();
    }

    // ---- subscriptions

    /**
     * {@inheritDoc} A group of its own, {@code ~<random>}, created at the end before this returns;
     * one thread reads it and hands each message to the listener's thread, and acks it once the
     * listener returned or threw (a throw is logged and counted; the subscription carries on with the
     * next message). Closing the subscription deletes the group; a subscription whose group is
     * deleted under it ends, with a WARN.
     */
    @Override
    public Subscription subscribeWithHeaders(BroadcastListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        broadcast.checkOpen();
        String name = StreamSubscription.PREFIX
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
        StreamGroup<T> g = openGroup(name, Position.end(), true);
        StreamSubscription<T> s = new StreamSubscription<>(this, g, broadcast, listener);
        try {
            broadcast.register(s);
        } catch (QueueClosedException e) {
            s.awaitTermination(System.nanoTime());
            throw e;
        }
        s.start();
        return s;
    }

    BroadcastRuntime<StreamSubscription<T>> broadcast() {
        return broadcast;
    }

    int maxAttempts() {
        return setup.settings().maxAttempts();
    }

    Duration blockTimeout() {
        return setup.settings().blockTimeout();
    }

    /** Runs one soft trim pass on every shard now, whenever the last one ran; for tests. */
    long trimNow() {
        return streams.trimNow();
    }

    /**
     * {@inheritDoc} On a sharded topic ordered per key with {@code shardBy}, not at all without:
     * each shard hands its messages out in publish order, but the shards are read in turn.
     */
    @Override
    public Semantics semantics() {
        return semantics;
    }

    Semantics groupSemantics() {
        return groupSemantics;
    }

    /** {@inheritDoc} Ends every subscription (deleting its group) and closes this object's groups. */
    @Override
    public void close() {
        broadcast.close(deadline -> {
            for (StreamGroup<T> g : List.copyOf(open)) {
                g.close();
            }
            heartbeats.close();
        });
    }

    @Override
    public String toString() {
        return "RedisStreamTopic[" + topic.label() + "]";
    }

    /** Builds a {@link RedisStreamTopic}; see {@link RedisQueueBuilder} for the shared settings. */
    public static final class Builder<T> extends RedisQueueBuilder<T, Builder<T>> {
        private long maxLength;
        private Duration maxAge;
        private long hardMaxLength;

        private Builder(UnifiedJedis client, String name, Codec<T> codec) {
            super(client, name, codec);
        }

        /**
         * Soft retention by length: entries beyond the newest {@code maxLength} are removed once
         * every durable group has acked them (subscriptions do not hold them back), by a bounded
         * pass after a publish, at most about once a second per topic object. None by default.
         *
         * @param maxLength 1 or more
         */
        public Builder<T> maxLength(long maxLength) {
            if (maxLength < 1) {
                throw new IllegalArgumentException("max length must be positive: " + maxLength);
            }
            this.maxLength = maxLength;
            return this;
        }

        /**
         * Soft retention by age: entries published more than {@code maxAge} ago (on the server's
         * clock) are removed once every durable group has acked them, as for {@link #maxLength}.
         * None by default.
         */
        public Builder<T> maxAge(Duration maxAge) {
            this.maxAge = Checks.positive(maxAge, "max age");
            return this;
        }

        /**
         * Hard cap on the stream's length ({@code XADD MAXLEN}): each publish beyond it removes the
         * oldest entries whether groups acked them or not; each removal that a group had not acked
         * is counted in that group's {@link GroupInfo#missed()}. None by default.
         *
         * @param hardMaxLength 1 or more
         */
        public Builder<T> hardMaxLength(long hardMaxLength) {
            if (hardMaxLength < 1) {
                throw new IllegalArgumentException("hard max length must be positive: " + hardMaxLength);
            }
            this.hardMaxLength = hardMaxLength;
            return this;
        }

        /**
         * Not supported yet: a stream topic's writes do not wait for replicas.
         *
         * @throws UnsupportedOperationException always
         */
        @Override
        public Builder<T> replicas(int replicas, Duration timeout) {
            throw new UnsupportedOperationException(
                    "a stream topic does not wait for replicas: replicas(" + replicas + ", " + timeout + ")");
        }

        /** The topic; makes no call to Redis. */
        public RedisStreamTopic<T> build() {
            if (hardMaxLength > 0 && maxLength > hardMaxLength) {
                throw new IllegalStateException(
                        "max length " + maxLength + " is above the hard max length " + hardMaxLength);
            }
            return new RedisStreamTopic<>(this);
        }
    }
}
