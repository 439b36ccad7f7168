package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.MessageListener;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
import io.queuekit.internal.BroadcastDispatch;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A {@link Broadcaster} on Redis PUB/SUB: {@code PUBLISH} to one channel, each subscription on a
 * {@code SUBSCRIBE}d connection of its own.
 *
 * <pre>{@code
 * try (RedisClient redis = RedisClient.create("redis://localhost:6379");
 *      RedisBroadcaster<String> prices = RedisBroadcaster.builder(redis, "prices", Codec.utf8()).build()) {
 *     Subscription s = prices.subscribe(price -> System.out.println(price));
 *     prices.publish("EURUSD 1.0841"); // s receives it: subscribe() returned after Redis confirmed
 * }
 * }</pre>
 *
 * <h2>What is delivered, what is lost</h2>
 * At most once, and only to subscriptions connected at the moment of the {@code PUBLISH}. Nothing
 * is stored: a message published while no one is subscribed, or while a subscription is
 * reconnecting, is gone. Each subscription receives messages in publish order (for messages from
 * one publishing connection; Redis orders concurrent publishers as it executes them). Messages are
 * lost, and nothing else is, when:
 * <ul>
 *   <li>no subscription is connected ({@link #publish} then returns 0);</li>
 *   <li>a subscription's connection is lost (Redis restart, failover, network, a connection gone
 *       silent), or reading from it fails in any other way (an error reply, an
 *       {@link OutOfMemoryError} for a message too large for the heap): it subscribes again by
 *       itself with capped exponential backoff, and the gap is reported by a WARN log line, by
 *       {@link RedisSubscription#reconnects()} and {@link #reconnects()}, and by the
 *       {@link Builder#onGap(Consumer) onGap} callback with the moment the connection was lost and
 *       the moment the subscription was back, and to the {@linkplain Builder#metrics(QueueMetrics)
 *       metrics} as a gap and a reconnect. Only closing ends a subscription;</li>
 *   <li>a listener falls so far behind that Redis disconnects it (see below), reported the same
 *       way;</li>
 *   <li>a message cannot be decoded ({@link RedisSubscription#decodeFailures()}, logged, and
 *       reported to the metrics as a decode failure), or the subscription is closed while
 *       messages are still buffered for its listener.</li>
 * </ul>
 *
 * <h2>Subscriptions, connections and threads</h2>
 * {@link #subscribe} and {@link #subscribePattern} block until Redis has confirmed the subscription
 * (at most {@link Builder#subscribeTimeout(Duration)}, 10 s by default), so a message published
 * after they return is received. Each subscription holds one connection of the client you passed
 * for as long as it runs. It borrows that connection itself from the client's pools: the pool of a
 * {@code RedisClient}; the current master's pool of a {@code RedisSentinelClient} (so a
 * resubscription after a failover reaches the new master); for a {@code RedisClusterClient}, the
 * pool of the master that serves the channel's slot, looked up afresh on every (re)subscription, so
 * a subscription follows a failover or a slot migration (see <a href="#cluster">Redis Cluster</a>;
 * with {@code sharded(false)}, any node's pool). A borrowed
 * connection must answer PING first, so a stale one left in the pool by a Redis restart is
 * discarded rather than failing the subscription, and the wait for a free connection ends after
 * {@code subscribeTimeout} (or when the subscription is closed) whatever the pool's
 * {@code maxWait}. When the subscription ends, the connection goes back with its own settings, or,
 * after a failure that may have left it subscribed, as broken, so the pool destroys it. <b>Size
 * the client's pool for it</b>: {@code maxTotal} at least the number of subscriptions plus the
 * connections your publishers use at once. Jedis's default of 8 with an unbounded wait makes a
 * ninth subscription time out and publishers wait. With any other {@link UnifiedJedis}, the
 * subscription takes its connection through
 * {@link UnifiedJedis#subscribe(redis.clients.jedis.BinaryJedisPubSub, byte[]...)} instead (see
 * the keep-alive rule below).
 *
 * <p>Each subscription runs two daemon threads: {@code queuekit-<channel>-subscriber-<n>}, which
 * calls the listener one message at a time, and {@code queuekit-<channel>-subscriber-<n>-redis},
 * which reads the connection and puts messages in a buffer between the two, bounded by
 * {@link Builder#bufferCapacity(int)} (1024 messages by default) and
 * {@link Builder#bufferBytes(int)} (8 MiB by default). One more daemon thread per broadcaster,
 * {@code queuekit-<channel>-keepalive}, sends the keep-alives of all its subscriptions; it ends
 * about a second after the last subscription closed, and with {@link #close()}. A listener that
 * throws (an {@link Error} included) is logged (rate-limited) and counted
 * ({@link RedisSubscription#listenerFailures()}) and receives the next message; a listener that
 * leaves its thread interrupted has the flag cleared before the next call; other subscriptions are
 * never affected. A metrics observer that throws is logged, and changes nothing else.
 *
 * <h2 id="cluster">Redis Cluster</h2>
 * With a {@code RedisClusterClient} the channel is <b>sharded</b> when the master that serves its
 * slot runs Redis 7 or later (unless the broadcaster is built with
 * {@link Builder#sharded(boolean) sharded(false)}): {@code SPUBLISH} and
 * {@code SSUBSCRIBE} on the master that serves the channel's slot, so a message travels to that one
 * shard rather than to every node, and {@link #publish} counts every subscription of the channel
 * wherever its publisher and subscribers are connected. When that master fails over or the slot
 * moves, Redis ends the sharded subscriptions; each subscribes again on the slot's new master and
 * reports the gap as above. That master is asked its version with {@code HELLO}, which every ACL
 * user may run, on each connection as it is made: by a subscription at every (re)subscription, by
 * a publisher on each connection it has not asked before. An upgrade from 6.2 to 7 restarts the
 * server, so instances started before it and after it all speak sharded pub/sub once it is done
 * (the subscriptions report the restart as a gap). Sharded pub/sub has no patterns, so
 * {@link #subscribePattern} throws {@link UnsupportedOperationException} on a sharded channel, and
 * a pattern subscription made on 6.2 cannot subscribe again after the upgrade: it logs why, and
 * tries again until it is closed.
 *
 * <p>On Redis 6.2 (no sharded pub/sub), or with {@code sharded(false)}, the channel is classic:
 * {@code PUBLISH} is copied to every node of the cluster and a subscription may sit on any node, so
 * delivery is the same but <b>the count {@code publish} returns covers only the subscriptions
 * connected to the node that received the message</b>; 0 there does not mean no one received it.
 * All publishers and subscribers of a channel must agree: sharded and classic messages never meet.
 *
 * <h2>Slow listeners</h2>
 * When a listener cannot keep up and its buffer is full (by count or by bytes, whichever comes
 * first; messages the listener's thread has taken out count until it hands each to the listener),
 * the reading thread stops reading: the backlog then waits in Redis, never in this JVM's heap
 * beyond the buffer, and the other subscriptions carry on. If the backlog passes the server's
 * {@code client-output-buffer-limit pubsub} (by default 32 MB at once, or 8 MB for 60 s), Redis
 * closes the connection; the
 * subscription subscribes again and reports the gap as above. Messages come in publish order up to
 * the gap and after it; none is dropped silently in between. A WARN line, at most once a minute,
 * says when a buffer has stayed full for over a second.
 *
 * <h2>Keep-alive, and dead connections</h2>
 * A subscribed connection that has read nothing for {@link Builder#keepAliveInterval(Duration)}
 * (30 s by default) repeats its {@code SUBSCRIBE} (harmless to the server, and unlike {@code PING}
 * safe with RESP3 in Jedis), so that NATs and load balancers do not drop it unnoticed. The
 * keep-alive goes out from the broadcaster's keep-alive thread, so a listener that runs for
 * minutes does not hold it back. The rule that follows, for the three client classes above:
 * <ul>
 *   <li>once Redis confirmed the subscription, its connection's read timeout is the keep-alive
 *       interval plus the same again, at least 2 s ({@code deadAfter}: 60 s by default), whatever
 *       the client's {@code socketTimeoutMillis} and {@code blockingSocketTimeoutMillis}. A healthy
 *       connection always reads the answer to a keep-alive before that, so <b>a healthy idle
 *       subscription never reconnects</b>, however short the client's timeouts are;</li>
 *   <li>a connection that goes silent (a vanished host, a frozen network path, a hung server) is
 *       given up after {@code deadAfter} without a byte, replaced, and the gap reported; a
 *       subscription Redis does not confirm within {@code deadAfter} is given up too;</li>
 *   <li>a connection going back to the pool gets its own socket timeout back.</li>
 * </ul>
 * With any other {@link UnifiedJedis} the subscription's connection keeps the client's
 * {@code blockingSocketTimeoutMillis} as its read timeout: make that 0 (a dead connection is then
 * noticed when TCP gives up) or longer than the keep-alive interval plus a round trip, else an idle
 * subscription reconnects each time it runs out (the WARN line says so).
 *
 * <h2>Nulls, threads, closing</h2>
 * Null arguments are refused with {@link NullPointerException}, bad ones with
 * {@link IllegalArgumentException} before anything is sent. Every method is thread-safe.
 * {@link #close()} is idempotent: it ends every subscription (UNSUBSCRIBE, which returns the
 * connection to the client's pool), waits at most {@link Builder#closeTimeout(Duration)} for their
 * threads, and makes later calls throw {@link QueueClosedException}. It does not close the
 * {@link UnifiedJedis} client, which stays yours to close, after this broadcaster.
 *
 * @param <T> the payload type
 */
public final class RedisBroadcaster<T> implements Broadcaster<T> {

    /** The transport name in {@link #semantics()}. */
    public static final String TRANSPORT = "redis-pubsub";

    /** The default {@link Builder#maxPayloadBytes(int)}: 1 MiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = PayloadLimit.DEFAULT_BYTES;

    /** The default {@link Builder#bufferBytes(int)}: 8 MiB. */
    public static final int DEFAULT_BUFFER_BYTES = 8 << 20;

    private static final Semantics SEMANTICS = new Semantics(TRANSPORT, Semantics.Guarantee.AT_MOST_ONCE,
            Semantics.Ordering.PUBLISH_ORDER, false, true, false);

    private final String name;
    private final String keyPrefix;
    private final String channelKey;
    private final byte[] channelKeyBytes;
    private final Codec<T> codec;
    private final int maxPayloadBytes;
    private final Sharding sharding;
    private final Publisher publisher;
    private final BroadcastRuntime<Subscriber<?>> runtime;
    private final Shared<T> shared;

    private RedisBroadcaster(Builder<T> b) {
        this.name = b.channel;
        this.keyPrefix = b.keyPrefix;
        this.channelKey = RedisKeys.of(keyPrefix, name).base();
        this.channelKeyBytes = channelKey.getBytes(StandardCharsets.UTF_8);
        this.codec = b.codec;
        this.maxPayloadBytes = b.maxPayloadBytes;
        this.sharding = Sharding.of(b.client, b.sharded, channelKey);
        this.publisher = new Publisher(b.client, channelKeyBytes, sharding);
        this.runtime = new BroadcastRuntime<>(name, "broadcaster " + name,
                b.metrics.observe(name, SEMANTICS.transport(), keyPrefix, null), b.closeTimeout, Subscriber.log);
        Settings settings = new Settings(b.subscribeTimeout, b.initialBackoff, b.maxBackoff, b.bufferCapacity,
                b.bufferBytes, b.keepAliveInterval, b.onGap, b.clock);
        this.shared = new Shared<>(b.client, ConnectionSource.of(b.client), sharding,
                new Heartbeat("queuekit-" + name + "-keepalive"), settings, runtime, codec, new Reconnects(null));
    }

    /**
     * Starts building a broadcaster on {@code channel}.
     *
     * @param client the Redis client that publishes and lends each subscription a connection;
     *     a {@code RedisClient}, {@code RedisSentinelClient} or {@code RedisClusterClient}. It stays
     *     yours: the broadcaster never closes it.
     * @param channel the channel's name: 1 to 100 letters, digits and {@code . _ - :}
     * @param codec turns payloads into bytes and back; every subscriber must use a compatible one
     * @param <T> the payload type
     * @return a builder with the defaults
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the channel name is invalid
     */
    public static <T> Builder<T> builder(UnifiedJedis client, String channel, Codec<T> codec) {
        return new Builder<>(client, channel, codec);
    }

    /** The channel's name, as given to the builder. */
    @Override
    public String name() {
        return name;
    }

    /**
     * The Redis channel this broadcaster publishes to: {@code <keyPrefix>:{<name>}}, the name in a
     * hash tag. Other clients (such as {@code redis-cli SUBSCRIBE}) listen there.
     */
    public String channelKey() {
        return channelKey;
    }

    /**
     * Publishes a message to every subscription connected to this channel now, in this process or
     * any other. Blocks for one round trip to Redis.
     *
     * @return how many subscribed connections received it, as Redis counts them (pattern
     *     subscriptions included); 0 means no one did and the message is gone. On a classic
     *     channel of a Redis Cluster (Redis 6.2, or {@code sharded(false)}) only the subscriptions
     *     on the node that received it are counted: see <a href="#cluster">Redis Cluster</a>
     * @throws NullPointerException if {@code message} is null
     * @throws IllegalArgumentException if the encoded message is larger than
     *     {@link Builder#maxPayloadBytes(int)}
     * @throws SerializationException if the codec fails; nothing was published
     * @throws TransportException if Redis could not be reached or answered with an error (the cause
     *     is Jedis's exception); the message may or may not have been published
     * @throws QueueClosedException after {@link #close()}
     */
    @Override
    public long publish(T message) {
        Objects.requireNonNull(message, "message");
        runtime.checkOpen();
        byte[] body = encode(message);
        try {
            long received = publisher.publish(body);
            runtime.observer().sent(1);
            return received;
        } catch (JedisException e) {
            throw new TransportException("could not publish to " + channelKey + ": " + e.getMessage(), e);
        }
    }

    /**
     * Publishes messages in the given order in one pipelined round trip, for bursts. Every message
     * is encoded and checked before anything is sent, so a refused call publishes nothing. The
     * {@code PUBLISH} commands are pipelined, not a transaction: another client's messages may
     * come between them, and a subscription made or lost during the call receives part of them.
     *
     * @param messages the messages, published in iteration order
     * @return for each message, in order, how many subscribed connections received it
     * @throws NullPointerException if {@code messages} or any element is null
     * @throws IllegalArgumentException if any encoded message is too large
     * @throws SerializationException if the codec fails; nothing was published
     * @throws TransportException if Redis failed part way; some of the messages, in order from the
     *     first, may have been published
     * @throws QueueClosedException after {@link #close()}
     */
    @Override
    public long[] publishAll(Collection<? extends T> messages) {
        List<? extends T> copy = Checks.payloads(messages);
        runtime.checkOpen();
        List<byte[]> bodies = new ArrayList<>(copy.size());
        for (T m : copy) {
            bodies.add(encode(m));
        }
        if (bodies.isEmpty()) {
            return new long[0];
        }
        try {
            long[] received = publisher.publishAll(bodies);
            runtime.observer().sent(bodies.size());
            return received;
        } catch (JedisException | IllegalStateException e) {
            // a cluster pipeline that loses a connection logs it and leaves that node's replies unset,
            // which Jedis reports with IllegalStateException
            throw new TransportException("could not publish " + bodies.size() + " messages to " + channelKey
                    + "; some may have been published: " + e.getMessage(), e);
        }
    }

    /**
     * Subscribes {@code listener} to this channel; returns once Redis has confirmed the
     * subscription, so every message published after this returns is delivered (while the
     * connection holds). The listener is called on the subscription's own thread
     * ({@code queuekit-<channel>-subscriber-<n>}), one message at a time, in publish order.
     *
     * @throws NullPointerException if {@code listener} is null
     * @throws TransportException if Redis refused or could not be reached, or did not confirm within
     *     {@link Builder#subscribeTimeout(Duration)} (often: the client's pool has no connection left)
     * @throws QueueClosedException after {@link #close()}
     */
    @Override
    public RedisSubscription subscribe(MessageListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        runtime.checkOpen();
        return start(channelKeyBytes, Attempt.Kind.CHANNEL, name, (channel, message) -> listener.onMessage(message),
                null);
    }

    /**
     * Subscribes {@code listener} to every channel under this broadcaster's key prefix whose name
     * matches a glob-style {@code pattern} ({@code *} any characters, {@code ?} one character,
     * {@code [abc]}, {@code [^a]}, {@code [a-z]}), with PSUBSCRIBE. The listener is also told the
     * channel's name (without prefix and hash tag). Messages of every matching channel are decoded
     * with this broadcaster's codec. Otherwise it behaves exactly like {@link #subscribe}: confirmed
     * before it returns, its own connection and thread, resubscribed after a loss.
     *
     * <p>The pattern only ever reaches broadcaster channels under this key prefix: every
     * {@code [} must be closed by a {@code ]} within it (read as Redis reads it: the first
     * {@code ]} after {@code [} or {@code [^} closes, and a range {@code a-]} ends with that
     * {@code ]}), and a message from a channel the glob matches but that is not a broadcaster
     * channel (another client's {@code <keyPrefix>:{a b}}, say) is skipped and logged, never
     * handed to the listener.
     *
     * @param pattern 1 to 100 letters, digits, {@code . _ - :} and the glob characters
     *     {@code * ? [ ] ^}, with every {@code [...]} set closed
     * @param listener receives each message with the name of its channel
     * @return the subscription, already confirmed by Redis; close it to stop
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the pattern holds anything else, or leaves a set open or
     *     closes one it did not open
     * @throws TransportException as for {@link #subscribe}
     * @throws UnsupportedOperationException on a sharded channel of a Redis Cluster (see
     *     <a href="#cluster">Redis Cluster</a>)
     * @throws QueueClosedException after {@link #close()}
     */
    public RedisSubscription subscribePattern(String pattern, PatternListener<? super T> listener) {
        Patterns.checkPattern(pattern);
        Objects.requireNonNull(listener, "listener");
        runtime.checkOpen();
        boolean sharded;
        try {
            sharded = sharding.forPublish();
        } catch (JedisException e) {
            throw new TransportException("could not subscribe to " + pattern + " under " + keyPrefix + ": "
                    + e.getMessage(), e);
        }
        if (sharded) {
            throw sharding.noPatterns();
        }
        String head = keyPrefix + ":{";
        byte[] key = (head + pattern + "}").getBytes(StandardCharsets.UTF_8);
        return start(key, Attempt.Kind.PATTERN, pattern, listener::onMessage,
                channelBytes -> Patterns.channelName(head, new String(channelBytes, StandardCharsets.UTF_8)));
    }

    private RedisSubscription start(byte[] target, Attempt.Kind kind, String channel,
            BroadcastDispatch.Listener<? super T> listener, Function<byte[], String> channelNames) {
        Subscriber<T> s = new Subscriber<>(shared, target, kind, channel, runtime.nextSubscriptionName(), listener,
                channelNames);
        runtime.register(s);
        s.start();
        return new RedisSubscription(s);
    }

    /**
     * Transport {@code redis-pubsub}: at-most-once, publish order, nothing retained while no one
     * listens, fan-out to every subscription, no delays.
     */
    @Override
    public Semantics semantics() {
        return SEMANTICS;
    }

    /** Resubscriptions after a lost connection, over every subscription this broadcaster made. */
    public long reconnects() {
        return shared.reconnects().count();
    }

    /** Messages on which a listener threw, over every subscription this broadcaster made. */
    public long listenerFailures() {
        return runtime.totals().listenerFailures();
    }

    /** Messages skipped because the codec could not decode them, over every subscription. */
    public long decodeFailures() {
        return runtime.totals().decodeFailures();
    }

    /**
     * Ends every subscription and waits, at most {@link Builder#closeTimeout(Duration)} in all, for
     * their threads; later calls throw {@link QueueClosedException}. Idempotent. Messages still
     * buffered for a listener are dropped. The Redis client is not closed.
     */
    @Override
    public void close() {
        runtime.close(shared.heartbeat()::close);
    }

    @Override
    public String toString() {
        return "RedisBroadcaster[" + channelKey + "]";
    }

    private byte[] encode(T message) {
        return PayloadLimit.check(Codecs.encode(codec, message), maxPayloadBytes, channelKey + ": message");
    }

    /**
     * Receives messages of a {@linkplain #subscribePattern pattern subscription}, one at a time, in
     * publish order per channel, on the subscription's own thread. An exception thrown here is
     * logged and counted; the subscription carries on with the next message.
     *
     * @param <T> the payload type
     */
    @FunctionalInterface
    public interface PatternListener<T> {
        /**
         * Receives one message published to a channel the pattern matches.
         *
         * @param channel the name of the channel the message was published to, without key prefix
         *     and hash tag
         * @param message the decoded message, never null
         */
        void onMessage(String channel, T message) throws Exception;
    }

    /**
     * A subscription lost its connection and is back: every message published between
     * {@link #lostAt()} and {@link #resumedAt()} (and in the moments before the loss was noticed)
     * was not received by it. Delivered to {@link Builder#onGap(Consumer)} on the subscription's
     * listener thread, after the last message received before the loss and before the first one
     * after it.
     *
     * @param subscription the subscription's name, {@code queuekit-<channel>-subscriber-<n>}
     * @param channel the channel name, or the pattern of a pattern subscription
     * @param lostAt when the subscription noticed that its connection was lost (by the builder's
     *     clock)
     * @param resumedAt when Redis confirmed the new subscription
     * @param cause the failure that ended the old connection
     */
    public record GapEvent(String subscription, String channel, Instant lostAt, Instant resumedAt,
            Throwable cause) {

        /** How long the subscription was without a connection. */
        public Duration duration() {
            return Duration.between(lostAt, resumedAt);
        }
    }

    /**
     * A running subscription of a {@link RedisBroadcaster}, with its counters. Closing it sends
     * UNSUBSCRIBE, returns its connection to the client's pool and stops its threads: a listener
     * call in progress finishes (it is interrupted, which matters only if it blocks interruptibly),
     * messages still buffered are dropped, and {@link #close()} returns once both threads ended or
     * after {@link Builder#closeTimeout(Duration)}. Close is idempotent, thread-safe, and may be
     * called from the listener itself. All methods are thread-safe.
     */
    public static final class RedisSubscription extends RedisSubscriptionBase {

        private RedisSubscription(Subscriber<?> subscriber) {
            super(subscriber);
        }
    }

    /**
     * Configures a {@link RedisBroadcaster}. Every setter validates its argument at once and says
     * what is wrong. Not thread-safe; {@link #build()} may be called more than once.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> extends RedisBroadcasterBuilder<T> {

        private Builder(UnifiedJedis client, String channel, Codec<T> codec) {
            super(client, channel, codec);
        }

        /** A new broadcaster; no connection is made until the first publish or subscribe. */
        public RedisBroadcaster<T> build() {
            return new RedisBroadcaster<>(this);
        }
    }
}
