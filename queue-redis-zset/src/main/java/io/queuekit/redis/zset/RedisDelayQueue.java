package io.queuekit.redis.zset;

import java.time.temporal.ChronoUnit;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link DelayQueue} on a Redis sorted set: every waiting message's id is scored by its due time,
 * its body is kept in a hash by id, and a consumer claims the ids that are due. Messages become
 * ready by time passing alone; there is no mover task that must stay alive, so a consumer that
 * starts after a restart or an outage delivers everything already due at once.
 *
 * <pre>{@code
 * RedisDelayQueue<Reminder> reminders = RedisDelayQueue.builder(client, "reminders", JacksonCodec.of(Reminder.class))
 *         .visibilityTimeout(Duration.ofMinutes(1))
 *         .build();
 * MessageId id = reminders.schedule(new Reminder("call back"), Duration.ofMinutes(10));
 * reminders.cancel(id);                                   // true: it had not been handed out
 * reminders.scheduleAt(MessageId.of("invoice-17-dunning"), dunning, dueAt); // false if already stored
 * Subscription workers = reminders.consume(d -> notify(d.payload()),
 *         ConsumeOptions.builder().concurrency(4).build());
 * }</pre>
 *
 * <h2>Time</h2>
 * A relative delay ({@link #schedule(Object, Duration)}, {@link #send(Object)} as a delay of zero)
 * is added to the Redis server's clock ({@code TIME}) inside the script that stores the message,
 * and due messages are claimed by comparing with that same clock, so a producer or consumer whose
 * own clock is skewed can neither make a message due early nor late. An absolute
 * {@link Instant} ({@link #scheduleAt(Object, Instant)}, {@link #scheduleEach(Collection)}) is
 * honoured as given and compared with the server's clock, so for absolute times the server's and
 * the producer's clocks must agree; an instant in the past (down to {@link Instant#MIN}) means now. Due times are kept in whole
 * milliseconds and rounded up, never down, and since the server reads its clock in whole
 * milliseconds a positive delay gains one more: a message is never claimed before it is due.
 * Delays are refused above {@link DelayQueue#MAX_DELAY}, and instants later than this JVM's clock
 * plus {@code MAX_DELAY}, with {@link IllegalArgumentException}; negative delays likewise.
 *
 * <h2>Ids and idempotence</h2>
 * {@code send} and {@code schedule} generate ids: {@code @} and a counter of the queue's, so they
 * never equal an id a caller chooses, which may not begin with {@code @}.
 * {@link #schedule(MessageId, Object, Duration)} and
 * {@link #scheduleAt(MessageId, Object, Instant)} store a message under the caller's id unless a
 * message with that id is stored in any state (waiting, ready, in flight or dead): a second call is
 * <b>ignored</b> and returns {@code false}, and the first payload and due time stand. Once the
 * message is acked, cancelled, purged or dropped by the dead-letter retention, the id is free again.
 * {@link #cancel(MessageId)} is O(log n): it removes a message that is waiting or ready (including
 * one back for a retry or after an expired lease) and returns {@code false} for one in flight, acked,
 * dead or unknown.
 *
 * <h2>Ordering</h2>
 * Ready messages are handed out in order of due time, those due in the same millisecond in send
 * order (for up to 4096 messages per millisecond). A message scheduled in the past joins the ready
 * ones behind those already due. With several consumers messages are handed out in that order but
 * may finish in any order; a retried or returned message is scheduled anew at its new due time.
 * A sharded queue keeps this order within each shard only (see Shards).
 *
 * <h2>Delivery</h2>
 * At-least-once, exactly as the other Redis queues: one script claims up to
 * {@link RedisQueueBuilder#claimBatch(int) claimBatch} due messages into flight under a lease of
 * the visibility timeout and returns when the next message falls due. Ack deletes a message;
 * {@link Delivery#retry(Duration)} reschedules it; an expired lease returns it with its attempt
 * count raised, or moves it to the dead letters after the maximum attempts.
 *
 * <h2>Blocking</h2>
 * Consumers never poll on a fixed interval. Between claims a consumer blocks in Redis
 * ({@code BLPOP} on the queue's {@code signal} list), capped by the
 * {@linkplain RedisQueueBuilder#blockTimeout(Duration) block timeout} so that a dead connection,
 * an interrupt or a close is noticed. Storing a message that is due, or due before every other
 * waiting one, pushes a wake-up naming its due time, which wakes one blocked consumer at once; a
 * claim that took messages pushes one for the next due time, for another consumer. A consumer that
 * takes a wake-up watches its time and claims then, or hands it back to the list if it stops
 * waiting first (its poll times out, it is interrupted, its queue closes), so that, while any
 * consumer of the queue waits in any process, a message is claimed within about a timer tick of
 * Redis ({@code 1000 / hz} ms, 100 ms by default) of its due time. A process that dies holding a
 * wake-up delays that message by at most ten block timeouts (or the visibility timeout, if
 * shorter), the longest a queue object trusts its last claim's finding that nothing is claimable:
 * an idle queue object makes about one claim per that long. {@code docs/wake-up-protocol.md}
 * states the protocol and why it holds.
 *
 * <h2>Shards</h2>
 * Built with {@link RedisQueueBuilder#shards(int) shards(n)}, the queue keeps its messages in
 * {@code n} shards, each a whole delay queue's storage as described here (its own waiting set,
 * bodies, leases, signal list and dead letters) under a hash tag of its own,
 * {@code <prefix>:{<name>~<k>}:<part>}, so that Redis Cluster spreads one queue over several
 * masters; {@code shards(1)}, the default, is the layout above, key for key. Each shard claims
 * only what is due on the server's clock, so a sharded queue is never early either.
 * <ul>
 *   <li><b>Storing.</b> A message with a generated id goes to one shard, the next in turn or, with
 *   {@link RedisQueueBuilder#shardBy shardBy}, the shard of its key; a batch ({@code sendAll},
 *   {@code scheduleAll}, {@code scheduleAllAt}, {@code scheduleEach}) without a key goes whole to
 *   one shard in one script, so it stays all or nothing; with a key, each shard's part is a script
 *   of its own, in shard order, so a {@link io.queuekit.TransportException} midway can leave the
 *   parts of the shards before it stored (every payload is encoded and every key computed
 *   first).</li>
 *   <li><b>Ids.</b> Generated ids end with {@code ~<shard>}, naming the shard that holds the
 *   message, so {@link #cancel} and the dead letters find it in one script. A message with a
 *   caller-chosen id goes to the shard of a stable hash of the id (FNV-1a of its UTF-8, modulo
 *   {@code n}), so a second {@code schedule} with the same id meets the first and is ignored, and
 *   {@code cancel} finds it in one script. With {@code shardBy} it goes to the shard of its key
 *   instead, to keep its key's order: a second {@code schedule} of the id is then ignored only if
 *   its payload has the same key (an id names one message, so it should), and {@code cancel} of a
 *   chosen id looks in one shard after another until one removes it, a script per shard.</li>
 *   <li><b>Receiving.</b> A receive claims without waiting from one shard after another, each call
 *   starting at another shard, until it has enough or has tried them all; if it found nothing and
 *   may wait, it waits on one shard (the one whose next message falls due first, if that is
 *   within a block timeout) for at most one block timeout, then goes round again. So a message
 *   sent to a shard no consumer waits on is claimed within about one block timeout of falling
 *   due, where an unsharded queue wakes a consumer at once; and an idle consumer makes one claim
 *   per shard per block timeout, where an unsharded queue object makes about one per ten. A
 *   delivery settles on its own shard; {@link #ackAll} runs one script per shard.</li>
 *   <li><b>Order and inspection.</b> Due-time order holds within a shard: {@link #semantics()} says
 *   {@code PER_KEY} with a key, {@code NONE} without. {@link #stats()} sums the shards,
 *   {@link #peek} merges them by due time, and {@link #deadLetters()} covers them all, each shard
 *   keeping up to the dead-letter retention. A managed consumer's ack does not travel with its next
 *   claim.</li>
 * </ul>
 * The queue records its number of shards in Redis, and an object built with another number
 * refuses every call, naming both: see {@link RedisQueueBuilder#shards(int)} for how to change it.
 *
 * <h2>Connections, threads, closing</h2>
 * All methods are thread-safe. Each consumer blocked in {@code take}, {@code poll(timeout)},
 * {@code pollBatch} or a {@link #consume} worker holds one connection of the client's pool while it
 * waits; every other call borrows one for a single round trip, so size the pool for the consumers
 * plus the producers. The client stays the caller's: {@link #close()} does not close it. Closing
 * is graceful: blocked callers get {@link io.queuekit.QueueClosedException} within the block
 * timeout, the workers started by {@code consume} stop fetching and their running handlers finish
 * and settle (within {@link io.queuekit.ConsumeOptions#shutdownTimeout()}), then later calls
 * throw it; stored messages stay in Redis. Managed workers renew the lease of what they hold once a
 * third of the visibility timeout has passed, on one thread per {@code consume} call. Keys are
 * {@code <prefix>:{<name>}:<part>} (a shard's {@code <prefix>:{<name>~<k>}:<part>}), all in one Redis
 * Cluster slot.
 *
 * @param <T> the payload type
 */
public final class RedisDelayQueue<T> implements DelayQueue<T> {
    static final String TRANSPORT = "redis-zset";
    /** Most messages one {@link #peek} returns. */
    static final int PEEK_LIMIT = 10_000;

    private final RedisContext<T> queue;
    private final DelayStorage<T> store;
    private final Semantics semantics;
    private final int shards;

    private RedisDelayQueue(Builder<T> b) {
        QueueSetup<T> setup = QueueSetup.of(b);
        UnifiedJedis jedis = setup.client();
        this.queue = new RedisContext<>(jedis, setup.settings(), setup.codec(), TRANSPORT, RedisDelayQueue.class,
                ZsetScripts.INCLUDES, setup.shards());
        List<ZsetStore<T>> stores = new ArrayList<>();
        for (RedisContext<T> shard : queue.shards()) {
            stores.add(new ZsetStore<>(shard));
        }
        this.shards = setup.shards();
        this.store = setup.sharded() ? new ZsetShards<>(queue, stores, setup.sharding()) : stores.get(0);
        Semantics.Ordering ordering = !setup.sharded() ? Semantics.Ordering.DUE_TIME
                : setup.shardBy() != null ? Semantics.Ordering.PER_KEY : Semantics.Ordering.NONE;
        this.semantics = new Semantics(TRANSPORT, Semantics.Guarantee.AT_LEAST_ONCE, ordering, true, false, true);
        queue.runtime().attach(store);
    }

    /**
     * A builder for a queue named {@code name} (letters, digits, {@code . _ - :}) on {@code client},
     * with payloads encoded by {@code codec}.
     */
    public static <T> Builder<T> builder(UnifiedJedis client, String name, Codec<T> codec) {
        return new Builder<>(client, name, codec);
    }

    @Override
    public String name() {
        return queue.settings().keys().name();
    }

    // ---- storing

    @Override
    public MessageId send(T payload) {
        Objects.requireNonNull(payload, "payload");
        return store.send(List.of(payload), false, 0).get(0);
    }

    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        return store.send(Checks.payloads(payloads), false, 0);
    }

    /** {@inheritDoc} The delay is counted on the Redis server's clock. */
    @Override
    public MessageId schedule(T payload, Duration delay) {
        Objects.requireNonNull(payload, "payload");
        return store.send(List.of(payload), false, delayMillis(delay)).get(0);
    }

    /** {@inheritDoc} Compared with the Redis server's clock. */
    @Override
    public MessageId scheduleAt(T payload, Instant dueAt) {
        Objects.requireNonNull(payload, "payload");
        return store.send(List.of(payload), true, dueMillis(dueAt)).get(0);
    }

    /**
     * {@inheritDoc} A second call with an id that is stored (waiting, ready, in flight or dead) is
     * ignored: it returns {@code false} and the first payload and due time stand.
     */
    @Override
    public boolean schedule(MessageId id, T payload, Duration delay) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(payload, "payload");
        return store.sendWithId(id, payload, false, delayMillis(delay));
    }

    /** {@inheritDoc} Ignored, returning {@code false}, while a message with this id is stored. */
    @Override
    public boolean scheduleAt(MessageId id, T payload, Instant dueAt) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(payload, "payload");
        return store.sendWithId(id, payload, true, dueMillis(dueAt));
    }

    /**
     * {@inheritDoc} The delay is counted on the Redis server's clock. One script stores the whole
     * batch, so it is stored entirely or not at all, even when the call fails with a
     * {@link io.queuekit.TransportException} (which then cannot say which). Same-millisecond order
     * holds for up to 4096 messages (see Ordering in the class comment). A sharded queue without
     * {@code shardBy} stores the batch in one shard, by one script as well; with {@code shardBy},
     * by one script per shard, in shard order, so a {@code TransportException} midway can leave
     * the parts of the shards before it stored (see Shards in the class comment).
     */
    @Override
    public List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
        List<T> copy = Checks.payloads(payloads);
        return store.send(copy, false, delayMillis(delay));
    }

    /**
     * {@inheritDoc} Compared with the Redis server's clock. One script stores the whole batch, as
     * for {@link #scheduleAll(Collection, Duration)}.
     */
    @Override
    public List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
        List<T> copy = Checks.payloads(payloads);
        return store.send(copy, true, dueMillis(dueAt));
    }

    /**
     * {@inheritDoc} Compared with the Redis server's clock, and rounded up to whole milliseconds,
     * as for {@link #scheduleAt(Object, Instant)}: messages of the batch due within one millisecond
     * keep the collection's order (for up to 4096 per millisecond, see Ordering in the class
     * comment). One script stores the whole batch, as for
     * {@link #scheduleAll(Collection, Duration)}, with a due time passed for each message.
     */
    @Override
    public List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages) {
        List<Scheduled<? extends T>> copy = Checks.scheduled(messages);
        List<Instant> due = Delays.dueTimes(copy, Instant.now()); // the JVM's clock, as in dueMillis
        List<T> payloads = new ArrayList<>(copy.size());
        long[] millis = new long[copy.size()];
        for (int i = 0; i < copy.size(); i++) {
            payloads.add(copy.get(i).payload());
            millis[i] = epochMillis(due.get(i));
        }
        return store.sendEach(payloads, millis);
    }

    /**
     * {@inheritDoc} One script: removes the id from the sorted set and deletes its body. On a
     * sharded queue, in the shard the id names; a chosen id of a queue sharded by key is looked
     * for in one shard after another (see Shards in the class comment).
     */
    @Override
    public boolean cancel(MessageId id) {
        Objects.requireNonNull(id, "id");
        return store.cancel(id);
    }

    /** The delay in milliseconds, as {@link RedisContext#delayMillis} rounds it; checked first. */
    static long delayMillis(Duration delay) {
        return RedisContext.delayMillis(Delays.delay(delay));
    }

    /** Epoch milliseconds, rounded up; 0 (long past, so now) for instants before 1970. */
    static long dueMillis(Instant dueAt) {
        Delays.dueAt(dueAt, Instant.now()); // the JVM's clock: the server's would cost a round trip
        return epochMillis(dueAt);
    }

    /** Epoch milliseconds of a checked due time, rounded up; 0 for instants before 1970. */
    private static long epochMillis(Instant dueAt) {
        if (dueAt.isBefore(Instant.EPOCH)) {
            return 0;
        }
        long ms = dueAt.toEpochMilli();
        return dueAt.truncatedTo(ChronoUnit.MILLIS).equals(dueAt) ? ms : ms + 1;
    }

    // ---- receiving

    @Override
    public Delivery<T> poll() {
        return queue.runtime().poll();
    }

    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return queue.runtime().poll(timeout, unit);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        return queue.runtime().take();
    }

    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        return queue.runtime().pollBatch(maxMessages, timeout, unit);
    }

    /** {@inheritDoc} One script for all of this queue's deliveries. */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        Objects.requireNonNull(deliveries, "deliveries");
        return store.ackAll(deliveries);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return queue.runtime().consume(this, handler, options);
    }

    // ---- inspection and lifecycle

    /** {@inheritDoc} Ready counts waiting messages already due; delayed, those not yet due. */
    @Override
    public QueueStats stats() {
        return queue.runtime().stats();
    }

    /**
     * The first {@code max} waiting messages, due or not, in the order they will be handed out
     * (by due time; those due in the same millisecond in send order), without taking them: for an
     * operator's eyes. Messages in flight and dead letters are not shown. Read-only and one round
     * trip; the answer may be stale by the time it arrives, as consumers take messages meanwhile.
     * Each shows its id, the attempt its next delivery will be, when it was enqueued and falls due
     * (both on the server's clock), and its payload, or null if that cannot be decoded.
     *
     * @param max how many at most, 1 to 10000
     * @return the messages, next due first; empty if none waits
     * @throws IllegalArgumentException if {@code max} is out of range
     * @throws io.queuekit.QueueClosedException if the queue is closed
     */
    public List<WaitingMessage<T>> peek(int max) {
        if (max < 1 || max > PEEK_LIMIT) {
            throw new IllegalArgumentException("max must be 1 to " + PEEK_LIMIT + ": " + max);
        }
        return store.peek(max);
    }

    @Override
    public Semantics semantics() {
        return semantics;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        return queue.runtime().deadLetters();
    }

    @Override
    public void close() {
        queue.runtime().close();
    }

    @Override
    public String toString() {
        return "RedisDelayQueue[" + queue.label() + (shards == 1 ? "" : ", " + shards + " shards") + "]";
    }

    /** Builds a {@link RedisDelayQueue}; see {@link RedisQueueBuilder} for the shared settings. */
    public static final class Builder<T> extends RedisQueueBuilder<T, Builder<T>> {
        private Builder(UnifiedJedis client, String name, Codec<T> codec) {
            super(client, name, codec);
        }

        /** The queue; makes no call to Redis. */
        public RedisDelayQueue<T> build() {
            return new RedisDelayQueue<>(this);
        }
    }
}
