package io.queuekit.redis.zset;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Scheduler;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.spi.MessageObservations;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link DelayQueue} on a Redis sorted set: every waiting message's id is scored by its due time,
 * its body is kept in a hash by id, and consumers claim the ids that are due. There is no mover
 * task that must stay alive, so a consumer that starts after a restart or an outage delivers
 * everything already due at once.
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
 * <p>Easy to get wrong: a relative delay ({@link #schedule(Object, Duration)}) is counted on the
 * Redis server's clock, but an absolute {@link Instant} ({@link #scheduleAt(Object, Instant)},
 * {@link #scheduleEach(Collection)}) is compared with that clock as given, so for absolute times
 * the producer's clock and the server's must agree. As on the list queue, each consumer blocked in
 * Redis holds one connection of the client's pool, and the client stays the caller's to close.
 * The user's view and the design: {@code docs/delay-queue.md}, {@code docs/sharding.md}, and
 * {@code docs/wake-up-protocol.md} for how consumers wait between claims without polling.
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
    private final ZsetSchedules<T> schedules;

    private RedisDelayQueue(Builder<T> b) {
        QueueSetup<T> setup = QueueSetup.of(b);
        UnifiedJedis jedis = setup.client();
        this.queue = new RedisContext<>(
                jedis,
                setup.settings(),
                setup.codec(),
                TRANSPORT,
                RedisDelayQueue.class,
                ZsetScripts.INCLUDES,
                setup.shards());
        List<ZsetStore<T>> stores = new ArrayList<>();
        for (RedisContext<T> shard : queue.shards()) {
            stores.add(new ZsetStore<>(shard));
        }
        this.shards = setup.shards();
        this.store = setup.sharded() ? new ZsetShards<>(queue, stores, setup.sharding()) : stores.get(0);
        Semantics.Ordering ordering = !setup.sharded()
                ? Semantics.Ordering.DUE_TIME
                : setup.shardBy() != null ? Semantics.Ordering.PER_KEY : Semantics.Ordering.NONE;
        this.semantics = new Semantics(TRANSPORT, Semantics.Guarantee.AT_LEAST_ONCE, ordering, true, false, true);
        queue.runtime().attach(store);
        this.schedules = new ZsetSchedules<>(queue.shards().get(0));
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

    /** {@inheritDoc} One script, headers or not: they are stored in the message's body. */
    @Override
    public MessageId send(T payload, Headers headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        List<T> one = List.of(payload);
        return sending(1, added -> store.send(one, headers.withAll(added), false, 0))
                .get(0);
    }

    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> copy = Checks.payloads(payloads);
        return sending(copy.size(), added -> store.send(copy, added, false, 0));
    }

    /** {@inheritDoc} The delay is counted on the Redis server's clock. */
    @Override
    public MessageId schedule(T payload, Headers headers, Duration delay) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        long millis = delayMillis(delay);
        List<T> one = List.of(payload);
        return sending(1, added -> store.send(one, headers.withAll(added), false, millis))
                .get(0);
    }

    /** {@inheritDoc} Compared with the Redis server's clock. */
    @Override
    public MessageId scheduleAt(T payload, Headers headers, Instant dueAt) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        long millis = dueMillis(dueAt);
        List<T> one = List.of(payload);
        return sending(1, added -> store.send(one, headers.withAll(added), true, millis))
                .get(0);
    }

    /**
     * {@inheritDoc} A second call with an id that is stored (waiting, ready, in flight or dead) is
     * ignored: it returns {@code false} and the first payload, headers and due time stand.
     */
    @Override
    public boolean schedule(MessageId id, T payload, Headers headers, Duration delay) {
        checkChosen(id, payload, headers);
        return storeChosen(id, payload, headers, false, delayMillis(delay));
    }

    /** {@inheritDoc} Ignored, returning {@code false}, while a message with this id is stored. */
    @Override
    public boolean scheduleAt(MessageId id, T payload, Headers headers, Instant dueAt) {
        checkChosen(id, payload, headers);
        return storeChosen(id, payload, headers, true, dueMillis(dueAt));
    }

    private static void checkChosen(MessageId id, Object payload, Headers headers) {
        Checks.callerId(id);
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
    }

    private boolean storeChosen(MessageId id, T payload, Headers headers, boolean absolute, long millis) {
        queue.runtime().checkOpen();
        return queue.runtime()
                .sending(1, added -> store.sendWithId(id, payload, headers.withAll(added), absolute, millis));
    }

    /**
     * {@inheritDoc} The delay is counted on the Redis server's clock. One script stores the whole
     * batch, so it is stored entirely or not at all, even when the call fails with a
     * {@link io.queuekit.TransportException} (which then cannot say which). Same-millisecond order
     * holds for up to 4096 messages (see {@code docs/delay-queue.md}). A sharded queue without
     * {@code shardBy} stores the batch in one shard, by one script as well; with {@code shardBy},
     * by one script per shard, in shard order, so a {@code TransportException} midway can leave
     * the parts of the shards before it stored (see {@code docs/sharding.md}).
     */
    @Override
    public List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
        List<T> copy = Checks.payloads(payloads);
        long millis = delayMillis(delay);
        return sending(copy.size(), added -> store.send(copy, added, false, millis));
    }

    /**
     * {@inheritDoc} Compared with the Redis server's clock. One script stores the whole batch, as
     * for {@link #scheduleAll(Collection, Duration)}.
     */
    @Override
    public List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
        List<T> copy = Checks.payloads(payloads);
        long millis = dueMillis(dueAt);
        return sending(copy.size(), added -> store.send(copy, added, true, millis));
    }

    /**
     * {@inheritDoc} Compared with the Redis server's clock, and rounded up to whole milliseconds,
     * as for {@link #scheduleAt(Object, Instant)}: messages of the batch due within one millisecond
     * keep the collection's order (for up to 4096 per millisecond, see
     * {@code docs/delay-queue.md}). One script stores the whole batch, as for
     * {@link #scheduleAll(Collection, Duration)}, with a due time and headers passed for each
     * message.
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
        return sending(copy.size(), added -> {
            List<Headers> headers = new ArrayList<>(copy.size());
            for (Scheduled<? extends T> m : copy) {
                headers.add(m.headers().withAll(added));
            }
            return store.sendEach(payloads, headers, millis);
        });
    }

    /**
     * Runs one send of {@code count} messages inside the queue's observations, after checking that
     * the queue is open; an empty batch stores nothing, and is not observed.
     */
    private List<MessageId> sending(int count, MessageObservations.Send<List<MessageId>> send) {
        queue.runtime().checkOpen();
        return count == 0 ? List.of() : queue.runtime().sending(count, send);
    }

    /**
     * {@inheritDoc} The schedules are kept in the queue's keys (a sharded queue's on its first
     * shard, which then holds their ticks), so schedulers in every process that opens the queue
     * share them; each fire is one script that checks and stores together.
     */
    @Override
    public Scheduler<T> scheduler() {
        return queue.runtime().scheduler(schedules, false);
    }

    /** Where the schedules are kept, for tests of the atomic steps. */
    ZsetSchedules<T> schedules() {
        return schedules;
    }

    /**
     * {@inheritDoc} One script: removes the id from the sorted set and deletes its body. On a
     * sharded queue, in the shard the id names; a chosen id of a queue sharded by key is looked
     * for in one shard after another (see {@code docs/sharding.md}).
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

    @Override
    public void pause() {
        queue.runtime().pause();
    }

    @Override
    public void resume() {
        queue.runtime().resume();
    }

    @Override
    public boolean isPaused() {
        return queue.runtime().isPaused();
    }

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
     * (both on the server's clock), its payload, or null if that cannot be decoded, and its
     * headers.
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
