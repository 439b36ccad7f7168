package io.queuekit.redis.pubsub;

import io.queuekit.BroadcastListener;
import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.Headers;
import io.queuekit.MessageListener;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import io.queuekit.TransportException;
import io.queuekit.internal.BroadcastDispatch;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.HeaderFrame;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.RedisKeys;
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
 * {@code SUBSCRIBE}d connection of its own. At most once: a message reaches the subscriptions
 * connected when it is published, and what a subscription misses while it reconnects is reported
 * as a gap ({@link Builder#onGap(Consumer)}), never delivered later.
 *
 * <pre>{@code
 * try (RedisClient redis = RedisClient.create("redis://localhost:6379");
 *      RedisBroadcaster<String> prices = RedisBroadcaster.builder(redis, "prices", Codec.utf8()).build()) {
 *     Subscription s = prices.subscribe(price -> System.out.println(price));
 *     prices.publish("EURUSD 1.0841"); // s receives it: subscribe() returned after Redis confirmed
 * }
 * }</pre>
 *
 * <p>Easy to get wrong: <b>each subscription holds one connection of the client's pool</b> for as
 * long as it runs, so size the pool for the subscriptions plus the publishers; with Jedis's default
 * of 8 a ninth subscription times out after {@link Builder#subscribeTimeout(Duration)}. The client
 * stays yours to close, after this broadcaster. Thread-safe; {@link #close()} is idempotent.
 * What it promises and drops, and how it runs on Cluster and Sentinel: {@code docs/broadcasts.md}.
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

    private static final Semantics SEMANTICS = new Semantics(
            TRANSPORT, Semantics.Guarantee.AT_MOST_ONCE, Semantics.Ordering.PUBLISH_ORDER, false, true, false);

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
        this.runtime = new BroadcastRuntime<>(
                name,
                "broadcaster " + name,
                b.metrics.observe(name, SEMANTICS.transport(), keyPrefix, null),
                b.observations,
                SEMANTICS.transport(),
                b.closeTimeout,
                Subscriber.log);
        Settings settings = new Settings(
                b.subscribeTimeout,
                b.initialBackoff,
                b.maxBackoff,
                b.bufferCapacity,
                b.bufferBytes,
                b.keepAliveInterval,
                b.onGap,
                b.clock);
        this.shared = new Shared<>(
                b.client,
                ConnectionSource.of(b.client),
                sharding,
                new Heartbeat("queuekit-" + name + "-keepalive"),
                settings,
                runtime,
                codec,
                new Reconnects(null));
    }

    /**
     * Starts building a broadcaster on {@code channel}.
     *
     * @param client the Redis client that publishes and lends each subscription a connection;
     *     a {@code RedisClient}, {@code RedisSentinelClient} or {@code RedisClusterClient} (on Jedis 7.0,
     *     {@code JedisPooled}, {@code JedisSentineled} or {@code JedisCluster}). It stays
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
     * any other. Blocks for one round trip to Redis. What is published is the encoded message
     * itself, unless the broadcaster's observations add headers ({@link #publish(Object, Headers)}).
     *
     * @return how many subscribed connections received it, as Redis counts them (pattern
     *     subscriptions included); 0 means no one did and the message is gone. On a classic
     *     channel of a Redis Cluster (Redis 6.2, or {@code sharded(false)}) only the subscriptions
     *     on the node that received it are counted: see {@link Builder#sharded(boolean)}
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
        return publish(message, Headers.empty());
    }

    /**
     * As {@link #publish(Object)}, with headers, which a subscription made with
     * {@link #subscribeWithHeaders} receives as given. A message with headers is published framed:
     * the headers in front of the encoded message (see {@code docs/broadcasts.md}), so a subscriber
     * on another client sees those bytes; one without is published as the encoded message alone.
     * The size limit applies to the encoded message; the headers have their own ({@link Headers}).
     *
     * @return as {@link #publish(Object)}
     * @throws NullPointerException if {@code message} or {@code headers} is null
     * @throws IllegalArgumentException if the encoded message is larger than
     *     {@link Builder#maxPayloadBytes(int)}, or the headers with those the observations add exceed
     *     {@link Headers}' limits; nothing was published
     * @throws SerializationException if the codec fails; nothing was published
     * @throws TransportException as for {@link #publish(Object)}
     * @throws QueueClosedException after {@link #close()}
     */
    @Override
    public long publish(T message, Headers headers) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(headers, "headers");
        runtime.checkOpen();
        return runtime.sending(1, added -> {
            byte[] body = encode(message, headers.withAll(added));
            try {
                long received = publisher.publish(body);
                runtime.observer().sent(1);
                return received;
            } catch (JedisException e) {
                throw new TransportException("could not publish to " + channelKey + ": " + e.getMessage(), e);
            }
        });
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
        if (copy.isEmpty()) {
            return new long[0]; // nothing is published, so nothing is observed
        }
        return runtime.sending(copy.size(), added -> {
            List<byte[]> bodies = new ArrayList<>(copy.size());
            for (T m : copy) {
                bodies.add(encode(m, added));
            }
            try {
                long[] received = publisher.publishAll(bodies);
                runtime.observer().sent(bodies.size());
                return received;
            } catch (JedisException | IllegalStateException e) {
                // a cluster pipeline that loses a connection logs it and leaves that node's replies unset,
                // which Jedis reports with IllegalStateException
                throw new TransportException(
                        "could not publish " + bodies.size() + " messages to " + channelKey
                                + "; some may have been published: " + e.getMessage(),
                        e);
            }
        });
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
        return subscribeWithHeaders((message, headers) -> listener.onMessage(message));
    }

    /**
     * As {@link #subscribe(MessageListener)}, to a listener also given each message's headers
     * (empty for a message published without any, or by a client that knows nothing of headers).
     *
     * @throws NullPointerException if {@code listener} is null
     * @throws TransportException as for {@link #subscribe(MessageListener)}
     * @throws QueueClosedException after {@link #close()}
     */
    @Override
    public RedisSubscription subscribeWithHeaders(BroadcastListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        runtime.checkOpen();
        return start(
                channelKeyBytes,
                Attempt.Kind.CHANNEL,
                name,
                (channel, message, headers) -> listener.onMessage(message, headers),
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
     *     {@link Builder#sharded(boolean)})
     * @throws QueueClosedException after {@link #close()}
     */
    public RedisSubscription subscribePattern(String pattern, PatternListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        return startPattern(pattern, (channel, message, headers) -> listener.onMessage(channel, message));
    }

    /**
     * As {@link #subscribePattern(String, PatternListener)}, to a listener also given each
     * message's headers (empty for a message published without any).
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException as for {@link #subscribePattern(String, PatternListener)}
     * @throws TransportException as for {@link #subscribe}
     * @throws UnsupportedOperationException on a sharded channel of a Redis Cluster
     * @throws QueueClosedException after {@link #close()}
     */
    public RedisSubscription subscribePatternWithHeaders(String pattern, HeadersPatternListener<? super T> listener) {
        Objects.requireNonNull(listener, "listener");
        return startPattern(pattern, listener::onMessage);
    }

    private RedisSubscription startPattern(String pattern, BroadcastDispatch.Listener<? super T> listener) {
        Patterns.checkPattern(pattern);
        runtime.checkOpen();
        boolean sharded;
        try {
            sharded = sharding.forPublish();
        } catch (JedisException e) {
            throw new TransportException(
                    "could not subscribe to " + pattern + " under " + keyPrefix + ": " + e.getMessage(), e);
        }
        if (sharded) {
            throw sharding.noPatterns();
        }
        String head = keyPrefix + ":{";
        byte[] key = (head + pattern + "}").getBytes(StandardCharsets.UTF_8);
        return start(
                key,
                Attempt.Kind.PATTERN,
                pattern,
                listener,
                channelBytes -> Patterns.channelName(head, new String(channelBytes, StandardCharsets.UTF_8)));
    }

    private RedisSubscription start(
            byte[] target,
            Attempt.Kind kind,
            String channel,
            BroadcastDispatch.Listener<? super T> listener,
            Function<byte[], String> channelNames) {
        Subscriber<T> s =
                new Subscriber<>(shared, target, kind, channel, runtime.nextSubscriptionName(), listener, channelNames);
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

    /** The bytes to publish: the encoded message, size-checked, behind its headers if it has any. */
    private byte[] encode(T message, Headers headers) {
        return HeaderFrame.frame(
                headers, PayloadLimit.check(Codecs.encode(codec, message), maxPayloadBytes, channelKey + ": message"));
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
     * As {@link PatternListener}, also given each message's headers: for
     * {@link #subscribePatternWithHeaders}.
     *
     * @param <T> the payload type
     */
    @FunctionalInterface
    public interface HeadersPatternListener<T> {
        /**
         * Receives one message published to a channel the pattern matches.
         *
         * @param channel as for {@link PatternListener#onMessage}
         * @param message the decoded message, never null
         * @param headers the headers it was published with; empty if none
         */
        void onMessage(String channel, T message, Headers headers) throws Exception;
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
    public record GapEvent(String subscription, String channel, Instant lostAt, Instant resumedAt, Throwable cause) {

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
