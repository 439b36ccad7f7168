package io.queuekit.redis.list;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link MessageQueue} on a Redis LIST: producers push on one end, consumers take from the
 * other, blocking in Redis while the list is empty; first in, first out (per shard on a queue
 * built with {@link RedisQueueBuilder#shards(int) shards(n)}). At-least-once by default, so
 * handlers must tolerate duplicates. With {@link Builder#guarantee(Guarantee) AT_MOST_ONCE} a
 * receive is one {@code BRPOP} and the message leaves Redis when popped: it is <b>lost</b> if its
 * consumer dies or loses its connection (or the reply) before it finished, and nothing is
 * redelivered.
 *
 * <p>Easy to get wrong: every caller blocked in Redis ({@code take}, {@code poll(timeout)},
 * {@code pollBatch}, a {@link #consume} worker) holds one connection of the client's pool while it
 * waits, so size the pool for them plus the producers; and set the client's
 * {@code blockingSocketTimeoutMillis} a little above the
 * {@linkplain RedisQueueBuilder#blockTimeout block timeout}, since Jedis's default of 0 lets a
 * connection that died silently hold a consumer for good. The client stays the caller's to close.
 * The user's view and the design: {@code docs/work-queue.md} and {@code docs/sharding.md}.
 *
 * @param <T> the payload type
 */
public final class RedisListQueue<T> implements MessageQueue<T> {
    static final String TRANSPORT = "redis-list";

    /** Most messages one {@link #peek} returns. */
    static final int PEEK_LIMIT = 10_000;

    private final RedisContext<T> engine;
    private final ListStorage<T> mode;
    private final Semantics semantics;
    private final int shards;

    private RedisListQueue(Builder<T> b) {
        QueueSetup<T> setup = QueueSetup.of(b);
        UnifiedJedis jedis = setup.client();
        this.engine = new RedisContext<>(
                jedis,
                setup.settings(),
                setup.codec(),
                TRANSPORT,
                RedisListQueue.class,
                ListScripts.INCLUDES,
                setup.shards());
        List<ListMode<T>> modes = new ArrayList<>();
        for (RedisContext<T> shard : engine.shards()) {
            modes.add(b.guarantee == Guarantee.AT_MOST_ONCE ? new AtMostOnce<>(shard) : new AtLeastOnce<>(shard));
        }
        this.shards = setup.shards();
        this.mode = setup.sharded() ? new ListShards<>(engine, modes, setup.sharding()) : modes.get(0);
        Semantics.Ordering ordering = !setup.sharded()
                ? Semantics.Ordering.FIFO
                : setup.shardBy() != null ? Semantics.Ordering.PER_KEY : Semantics.Ordering.NONE;
        this.semantics = new Semantics(TRANSPORT, b.guarantee, ordering, true, false, false);
        engine.runtime().attach(mode);
    }

    /**
     * A builder for a queue named {@code name} (1 to 100 letters, digits and {@code . _ - :}) on
     * {@code client}, with payloads encoded by {@code codec} (such as {@link Codec#utf8()} or
     * {@link io.queuekit.redis.JacksonCodec#of(Class)}). Works with any {@link UnifiedJedis}:
     * {@code RedisClient}, {@code RedisSentinelClient} or {@code RedisClusterClient}, and on Jedis 7.0
     * {@code JedisPooled}, {@code JedisSentineled} or {@code JedisCluster}.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the name is not valid
     */
    public static <T> Builder<T> builder(UnifiedJedis client, String name, Codec<T> codec) {
        return new Builder<>(client, name, codec);
    }

    @Override
    public String name() {
        return engine.settings().keys().name();
    }

    /**
     * {@inheritDoc} One {@code LPUSH}, headers or not: they are stored in the message's list
     * element, in front of its payload, and a message without them is stored as it is.
     */
    @Override
    public MessageId send(T payload, Headers headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        engine.runtime().checkOpen();
        List<T> one = List.of(payload);
        return engine.runtime()
                .sending(1, added -> mode.send(one, headers.withAll(added)))
                .get(0);
    }

    /**
     * {@inheritDoc} One {@code LPUSH}, so the batch is stored whole or not at all. On a sharded
     * queue without {@code shardBy} the whole batch goes to one shard, in one {@code LPUSH} as well;
     * with {@code shardBy}, each shard's part goes in an {@code LPUSH} of its own, in shard order,
     * after every payload was encoded and every key computed: a {@link io.queuekit.TransportException}
     * midway can leave the parts of the shards before it stored.
     */
    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> checked = Checks.payloads(payloads);
        engine.runtime().checkOpen();
        if (checked.isEmpty()) {
            return List.of(); // nothing sent, so nothing for observations to see
        }
        return engine.runtime().sending(checked.size(), added -> mode.send(checked, added));
    }

    @Override
    public Delivery<T> poll() {
        return engine.runtime().poll();
    }

    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().poll(timeout, unit);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        return engine.runtime().take();
    }

    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().pollBatch(maxMessages, timeout, unit);
    }

    static <T> Delivery<T> first(List<Delivery<T>> deliveries) {
        return deliveries.isEmpty() ? null : deliveries.get(0);
    }

    /**
     * {@inheritDoc} At least once: one script for all of this queue's deliveries, one per shard on a
     * sharded queue (a failure on one shard leaves the acks of the shards before it made).
     */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        Objects.requireNonNull(deliveries, "deliveries");
        return mode.ackAll(deliveries);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return engine.runtime().consume(this, handler, options);
    }

    @Override
    public void pause() {
        engine.runtime().pause();
    }

    @Override
    public void resume() {
        engine.runtime().resume();
    }

    @Override
    public boolean isPaused() {
        return engine.runtime().isPaused();
    }

    @Override
    public QueueStats stats() {
        return engine.runtime().stats();
    }

    /**
     * The next {@code max} messages to be delivered, oldest first, without taking them: for an
     * operator's eyes. Only ready messages are shown, not those in flight, retries still waiting
     * for their delay, or dead letters. Read-only and one round trip; the answer may be stale by
     * the time it arrives, as consumers take messages meanwhile. Each shows its id, the attempt its
     * next delivery will be, when it was sent (the sender's clock), its payload, or null if that
     * cannot be decoded, and its headers; {@link WaitingMessage#dueAt()} is null. An element
     * pushed onto the list by another program is shown as it is, with a null id (the queue
     * dead-letters it when it reaches it). On a sharded queue, the next {@code max} of each shard merged by the time they
     * were sent, oldest first (one round trip per shard): each shard hands out its own in that
     * order, but the shards are read in turn, so the order across shards is not the order of
     * delivery.
     *
     * @param max how many at most, 1 to 10000
     * @return the messages, next to be delivered first; empty if none is ready
     * @throws IllegalArgumentException if {@code max} is out of range
     * @throws io.queuekit.QueueClosedException if the queue is closed
     */
    public List<WaitingMessage<T>> peek(int max) {
        if (max < 1 || max > PEEK_LIMIT) {
            throw new IllegalArgumentException("max must be 1 to " + PEEK_LIMIT + ": " + max);
        }
        return mode.peek(max);
    }

    @Override
    public Semantics semantics() {
        return semantics;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        return engine.runtime().deadLetters();
    }

    @Override
    public void close() {
        engine.runtime().close();
    }

    @Override
    public String toString() {
        return "RedisListQueue[" + engine.label() + ", " + semantics.guarantee()
                + (shards == 1 ? "" : ", " + shards + " shards") + "]";
    }

    /**
     * Builds a {@link RedisListQueue}. The settings shared by every Redis queue (key prefix,
     * visibility timeout, maximum attempts, dead-letter retention, payload limit, block timeout,
     * claim batch) are in {@link RedisQueueBuilder}; each setter checks its argument at once.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> extends RedisQueueBuilder<T, Builder<T>> {
        private Guarantee guarantee = Guarantee.AT_LEAST_ONCE;

        private Builder(UnifiedJedis client, String name, Codec<T> codec) {
            super(client, name, codec);
        }

        /**
         * The delivery guarantee (default {@link Guarantee#AT_LEAST_ONCE}); see the class comment
         * for what {@link Guarantee#AT_MOST_ONCE} gives up.
         */
        public Builder<T> guarantee(Guarantee guarantee) {
            this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
            return this;
        }

        /** The queue; it holds no connection of its own until used. */
        public RedisListQueue<T> build() {
            return new RedisListQueue<>(this);
        }
    }
}
