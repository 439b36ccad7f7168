package io.queuekit.redis.list;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Semantics;
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
 * other, blocking in Redis while the list is empty. Messages are handed out in send order (FIFO;
 * a sharded queue keeps order per shard, see Shards below); each goes to one consumer. Every message waits in the list as one element holding its id,
 * attempt, enqueue time (the sender's clock) and encoded payload, so a send is one {@code LPUSH}
 * and {@link #sendAll} stores any number in one. Two modes, chosen with
 * {@link Builder#guarantee(Guarantee)} and stated by {@link #semantics()} (transport
 * {@code redis-list}):
 *
 * <h2>At-least-once (the default)</h2>
 * The reliable-queue pattern of the Redis documentation: a consumer takes a message with one atomic
 * {@code BLMOVE} from the ready list into an in-flight list, so a message is always waiting, in
 * flight, delayed or dead, never nowhere, and a consumer that dies at any moment, even right after
 * the move, leaves it in flight. {@link Delivery#ack()} removes it. Leases of the
 * {@linkplain RedisQueueBuilder#visibilityTimeout visibility timeout} are kept by the consumers
 * themselves: about once per {@linkplain RedisQueueBuilder#blockTimeout block timeout}, and when a
 * lease or retry falls due, one receiving thread of each queue instance runs a short script that
 * starts a lease for every message it finds in flight without one and returns those whose lease
 * expired as their next attempt ({@link Delivery#attempt()} one higher), or moves them to the dead
 * letters past {@linkplain RedisQueueBuilder#maxAttempts the maximum attempts}. A message left
 * unsettled (its consumer crashed, hung or lost its connection) therefore comes back after the
 * visibility timeout plus at most about two block timeouts, while some consumer of the queue runs.
 * A delivery also keeps its own deadline, its receipt plus the visibility timeout: settling after
 * it returns {@code false} without a round trip, and settling succeeds only while that exact
 * delivery (id and attempt) is still in flight, so a late ack never settles a message handed out
 * again. Handlers must tolerate duplicates. Costs: one round trip per send; a {@code BLMOVE} and an
 * ack per message; {@link #pollBatch} takes a batch in one round trip.
 *
 * <h2>At-most-once</h2>
 * The textbook queue: a receive is one {@code BRPOP} ({@code RPOP}, with a count for
 * {@link #pollBatch}, when not waiting), and the message leaves Redis when it is popped. It is the
 * fastest mode, and it <b>loses</b> a message whenever a consumer dies, is killed or loses its
 * connection after the pop and before it finished; a receive whose reply is lost to a network
 * failure loses it too. Nothing is redelivered and the visibility timeout is not used.
 * {@link Delivery#ack()} only returns {@code true} (no round trip); {@link Delivery#retry} stores
 * the message again as its next attempt, honouring the delay; {@link Delivery#deadLetter} stores
 * it among the dead letters. {@link #consume} still retries a failing handler with backoff and
 * dead-letters after the maximum attempts, and {@link #stats()} and {@link #deadLetters()} work as
 * in the other mode ({@code inFlight} is always 0).
 *
 * <p>In both modes retries with a delay wait in a sorted set until due; no mover process is
 * needed, as receiving consumers promote due retries (within about a block timeout of falling due)
 * in a round trip they make anyway. Dead letters are kept in the structures every Redis queue
 * shares. Both modes use the same keys, {@code <prefix>:{<name>}:<part>}, and the same list
 * elements, so a queue switched from one mode to the other keeps its messages; anything pushed
 * onto the list by other programs is moved to the dead letters, not handed to a handler.
 *
 * <h2>Shards</h2>
 * Built with {@link RedisQueueBuilder#shards(int) shards(n)}, the queue keeps its messages in
 * {@code n} shards, each a whole queue's storage as described above (its own ready list, flight,
 * retries, dead letters and layout check) under a hash tag of its own,
 * {@code <prefix>:{<name>~<k>}:<part>}, so that Redis Cluster spreads one queue over several
 * masters; {@code shards(1)}, the default, is the layout above, key for key. A send goes to one
 * shard: the next in turn or, with {@link RedisQueueBuilder#shardBy shardBy}, the shard of its
 * key. A receive takes without waiting from one shard after another, each call starting at
 * another shard, until it has enough or has tried them all; if it found nothing and may wait, it
 * waits in Redis on one shard for at most one block timeout, then goes round again. So a waiting
 * consumer gets a message sent to any shard within about one block timeout, and an idle consumer
 * costs one non-blocking take per shard per block timeout. A delivery settles on its own shard.
 * Order holds within a shard only: {@link #semantics()} says {@code PER_KEY} with a key (one
 * consumer taking one message at a time sees each key's messages in send order), {@code NONE}
 * without. {@link #stats()} sums the shards (a round trip each), {@link #peek} merges them, and
 * {@link #deadLetters()} covers them all, each shard keeping up to the dead-letter retention.
 * Generated ids end with {@code ~<shard>}, so a dead letter is found by its id in one round trip.
 * A managed consumer's ack does not travel with its next fetch (the fetch may go to another
 * shard). The queue records its number of shards in Redis, and an object built with another
 * number refuses every call, naming both: see {@link RedisQueueBuilder#shards(int)} for how to
 * change it.
 *
 * <h2>Blocking and connections</h2>
 * {@code take}, {@code poll(timeout)}, {@code pollBatch} and {@code consume}'s workers block in
 * Redis, never spinning; each blocking command lasts at most the block timeout (default 1 s), after
 * which the caller notices an interrupt, a close, or a dead connection, and blocks again. A caller
 * blocked in Redis holds one connection of the client for that time, so size the client's pool for
 * the blocked callers and workers you run plus the other callers (Jedis' default pool holds 8, and
 * a caller who finds it empty waits for a connection). Set the client's socket timeout for
 * blocking commands ({@code DefaultJedisClientConfig.blockingSocketTimeoutMillis}) a little above
 * the block timeout: Jedis' default of 0 waits forever, so a connection that dies silently (a
 * dropped NAT entry, a vanished host) would hold a blocked consumer for good. The queue reconnects on its own: after a Redis restart or failover, workers log the failure
 * (one stack trace per outage, however many workers meet it), back off briefly and resume;
 * scripts are reloaded on {@code NOSCRIPT}. Every script touches only
 * keys of the queue's hash tag, so Redis Cluster works. Redis 6.2 or later.
 *
 * <h2>Nulls, errors, threads, closing</h2>
 * Null payloads and arguments are refused with {@link NullPointerException}, payloads above
 * {@linkplain RedisQueueBuilder#maxPayloadBytes the size limit} with
 * {@link IllegalArgumentException}; refused calls store nothing. Redis failures are
 * {@link io.queuekit.TransportException}s. All methods are thread-safe. {@link #close()} is
 * graceful: blocked callers throw {@link io.queuekit.QueueClosedException} within a block timeout
 * (a message their last blocking command took is put back first), the workers started by
 * {@code consume} stop fetching and their running handlers finish and settle (within
 * {@link io.queuekit.ConsumeOptions#shutdownTimeout()}), and only then do all calls throw it; it is
 * idempotent and keeps stored messages. The client stays the caller's to close.
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
        this.engine = new RedisContext<>(jedis, setup.settings(), setup.codec(), TRANSPORT, RedisListQueue.class,
                ListScripts.INCLUDES, setup.shards());
        List<ListMode<T>> modes = new ArrayList<>();
        for (RedisContext<T> shard : engine.shards()) {
            modes.add(b.guarantee == Guarantee.AT_MOST_ONCE ? new AtMostOnce<>(shard) : new AtLeastOnce<>(shard));
        }
        this.shards = setup.shards();
        this.mode = setup.sharded() ? new ListShards<>(engine, modes, setup.sharding()) : modes.get(0);
        Semantics.Ordering ordering = !setup.sharded() ? Semantics.Ordering.FIFO
                : setup.shardBy() != null ? Semantics.Ordering.PER_KEY : Semantics.Ordering.NONE;
        this.semantics = new Semantics(TRANSPORT, b.guarantee, ordering, true, false, false);
        engine.runtime().attach(mode);
    }

    /**
     * A builder for a queue named {@code name} (1 to 100 letters, digits and {@code . _ - :}) on
     * {@code client}, with payloads encoded by {@code codec} (such as {@link Codec#utf8()} or
     * {@link io.queuekit.redis.JacksonCodec#of(Class)}). Works with any {@link UnifiedJedis}:
     * {@code RedisClient}, {@code RedisSentinelClient} or {@code RedisClusterClient}.
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

    @Override
    public MessageId send(T payload) {
        Objects.requireNonNull(payload, "payload");
        engine.runtime().checkOpen();
        return mode.send(List.of(payload)).get(0);
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
        return mode.send(checked);
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
    public QueueStats stats() {
        return engine.runtime().stats();
    }

    /**
     * The next {@code max} messages to be delivered, oldest first, without taking them: for an
     * operator's eyes. Only ready messages are shown, not those in flight, retries still waiting
     * for their delay, or dead letters. Read-only and one round trip; the answer may be stale by
     * the time it arrives, as consumers take messages meanwhile. Each shows its id, the attempt its
     * next delivery will be, when it was sent (the sender's clock) and its payload, or null if that
     * cannot be decoded; {@link WaitingMessage#dueAt()} is null. An element pushed onto the list
     * by another program is shown as it is, with a null id (the queue dead-letters it when it
     * reaches it). On a sharded queue, the next {@code max} of each shard merged by the time they
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
