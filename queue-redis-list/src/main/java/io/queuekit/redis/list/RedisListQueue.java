package io.queuekit.redis.list;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.redis.QueueEngine;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.Waiter;
import io.queuekit.spi.Checks;
import io.queuekit.spi.Workers;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.ListDirection;

/**
 * A {@link MessageQueue} on a Redis LIST: producers push ids on one end, consumers take them from
 * the other, blocking in Redis while the list is empty.
 *
 * <p><b>At-least-once</b> (the default): a consumer takes a message by moving it atomically into
 * flight under a lease of the visibility timeout ({@code BLMOVE} into a claiming list, then one
 * script records the lease; an id left in the claiming list by a consumer that died in between is
 * given a lease by the next consumer, so nothing is lost). Ack deletes it; an expired lease
 * returns it with its attempt count raised; past the maximum attempts it goes to the dead letters.
 *
 * <p>Build with {@link #builder(UnifiedJedis, String, Codec)}. Thread-safe. The client stays the
 * caller's; each blocked consumer holds one of its connections while it waits.
 *
 * @param <T> the payload type
 */
public final class RedisListQueue<T> implements MessageQueue<T> {
    static final String TRANSPORT = "redis-list";
    private static final Semantics AT_LEAST_ONCE = new Semantics(TRANSPORT, Semantics.Guarantee.AT_LEAST_ONCE,
            Semantics.Ordering.FIFO, true, false, false);

    private final UnifiedJedis jedis;
    private final QueueEngine<T> engine;
    private final String readyKey;
    private final String claimingKey;
    private final Waiter waiter;
    private final Set<Subscription> consumers = ConcurrentHashMap.newKeySet();

    private RedisListQueue(Builder<T> b) {
        this.jedis = b.client();
        this.engine = new QueueEngine<>(jedis, b.validated(), b.codec(), TRANSPORT, RedisListQueue.class,
                "/io/queuekit/redis/list/list.lua");
        this.readyKey = engine.key("ready");
        this.claimingKey = engine.key("claiming");
        this.waiter = millis -> jedis.blmove(readyKey, claimingKey, ListDirection.RIGHT, ListDirection.LEFT,
                millis / 1000.0);
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
        return engine.settings().keys().name();
    }

    @Override
    public MessageId send(T payload) {
        Objects.requireNonNull(payload, "payload");
        return engine.send(List.of(payload), false, 0).get(0);
    }

    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        return engine.send(Checks.payloads(payloads), false, 0);
    }

    @Override
    public Delivery<T> poll() {
        List<Delivery<T>> d = engine.claim(1, null).deliveries();
        return d.isEmpty() ? null : d.get(0);
    }

    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        List<Delivery<T>> d = engine.receive(1, Checks.timeoutNanos(timeout, unit), waiter);
        return d.isEmpty() ? null : d.get(0);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        while (true) {
            List<Delivery<T>> d = engine.receive(1, TimeUnit.DAYS.toNanos(1), waiter);
            if (!d.isEmpty()) {
                return d.get(0);
            }
        }
    }

    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        Checks.batchSize(maxMessages);
        return engine.receive(maxMessages, Checks.timeoutNanos(timeout, unit), waiter);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        engine.checkOpen();
        Workers w = Workers.start(this, handler, options, engine.settings().maxAttempts());
        consumers.add(w);
        return w;
    }

    @Override
    public QueueStats stats() {
        return engine.stats();
    }

    @Override
    public Semantics semantics() {
        return AT_LEAST_ONCE;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        engine.checkOpen();
        return engine.deadLetters();
    }

    @Override
    public void close() {
        if (engine.close()) {
            consumers.forEach(Subscription::close);
        }
    }

    @Override
    public String toString() {
        return "RedisListQueue[" + engine.label() + "]";
    }

    /** Builds a {@link RedisListQueue}; see {@link RedisQueueBuilder} for the shared settings. */
    public static final class Builder<T> extends RedisQueueBuilder<T, Builder<T>> {
        private Builder(UnifiedJedis client, String name, Codec<T> codec) {
            super(client, name, codec);
        }

        UnifiedJedis client() {
            return client;
        }

        Codec<T> codec() {
            return codec;
        }

        io.queuekit.redis.RedisQueueSettings validated() {
            return settings();
        }

        public RedisListQueue<T> build() {
            return new RedisListQueue<>(this);
        }
    }

}
