package io.queuekit.redis.pubsub;

import io.queuekit.Codec;
import io.queuekit.internal.Checks;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.RedisBroadcastSettings;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import redis.clients.jedis.UnifiedJedis;

/**
 * The settings of {@link RedisBroadcaster.Builder}, each checked as it is set: the builder users
 * name is nested in the broadcaster, its body lives here. The one subclass is that builder.
 *
 * @param <T> the payload type
 */
abstract sealed class RedisBroadcasterBuilder<T> permits RedisBroadcaster.Builder {
    final UnifiedJedis client;
    final String channel;
    final Codec<T> codec;
    String keyPrefix = "queuekit";
    int maxPayloadBytes = RedisBroadcaster.DEFAULT_MAX_PAYLOAD_BYTES;
    Duration subscribeTimeout = Duration.ofSeconds(10);
    Duration initialBackoff = Duration.ofMillis(100);
    Duration maxBackoff = Duration.ofSeconds(5);
    int bufferCapacity = 1024;
    int bufferBytes = RedisBroadcaster.DEFAULT_BUFFER_BYTES;
    Duration keepAliveInterval = Duration.ofSeconds(30);
    Duration closeTimeout = Duration.ofSeconds(5);
    Consumer<? super RedisBroadcaster.GapEvent> onGap;
    Clock clock = Clock.systemUTC();
    QueueMetrics metrics = QueueMetrics.NONE;
    MessageObservations observations = MessageObservations.NONE;
    boolean sharded = true;

    RedisBroadcasterBuilder(UnifiedJedis client, String channel, Codec<T> codec) {
        this.client = Objects.requireNonNull(client, "client");
        this.channel = Checks.name(channel);
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /**
     * Whether a cluster client ({@code RedisClusterClient} or {@code JedisCluster}) shards the channel when the master serving its slot runs
     * Redis 7 or later, as that master says on each connection (true by default): {@code SPUBLISH}
     * goes to that master and {@code publish} returns how many subscriptions received the message
     * there, which is every subscription of the channel, since each {@code SSUBSCRIBE}s on it. With
     * {@code false}, or on Redis 6.2, classic {@code PUBLISH} is copied to every node of the
     * cluster and the count covers only subscriptions connected to the node that received it
     * (a message counted 0 may still have been received on other nodes). Every publisher and
     * subscriber of a channel must agree: sharded and classic messages never meet. Pattern
     * subscriptions need classic pub/sub. Ignored for other clients.
     */
    public RedisBroadcaster.Builder<T> sharded(boolean sharded) {
        this.sharded = sharded;
        return self();
    }

    /**
     * The first part of the Redis channel, {@code <keyPrefix>:{<name>}}; {@code queuekit} by
     * default. Same rules as a channel name.
     */
    public RedisBroadcaster.Builder<T> keyPrefix(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        try {
            this.keyPrefix = Checks.name(keyPrefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("keyPrefix: " + e.getMessage(), e);
        }
        return self();
    }

    /**
     * The largest encoded message {@link RedisBroadcaster#publish} accepts: 1 byte to 256 MiB, 1 MiB by default,
     * the same rule as the queues'. A larger one is refused with {@link IllegalArgumentException},
     * publishing nothing.
     */
    public RedisBroadcaster.Builder<T> maxPayloadBytes(int maxPayloadBytes) {
        this.maxPayloadBytes = PayloadLimit.maxPayloadBytes(maxPayloadBytes);
        return self();
    }

    /** How long {@code subscribe} waits for Redis to confirm; 10 s by default, 1 ms to 1 h. */
    public RedisBroadcaster.Builder<T> subscribeTimeout(Duration subscribeTimeout) {
        this.subscribeTimeout =
                Checks.between(subscribeTimeout, Duration.ofMillis(1), Duration.ofHours(1), "subscribeTimeout");
        return self();
    }

    /**
     * The wait before the first attempt to subscribe again after a lost connection, doubled
     * after each failed attempt up to {@code max} (each wait varied by up to 20% so that many
     * subscribers do not reconnect in step); 100 ms and 5 s by default, each 1 ms to 1 h.
     */
    public RedisBroadcaster.Builder<T> reconnectBackoff(Duration initial, Duration max) {
        Checks.between(initial, Duration.ofMillis(1), Duration.ofHours(1), "initial reconnect backoff");
        Checks.between(max, Duration.ofMillis(1), Duration.ofHours(1), "max reconnect backoff");
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException(
                    "max reconnect backoff must not be below the initial one: " + max + " < " + initial);
        }
        this.initialBackoff = initial;
        this.maxBackoff = max;
        return self();
    }

    /**
     * How many received messages each subscription holds for its listener before it stops
     * reading from Redis; 1024 by default, 1 to 16,777,216. The buffer is also bounded by
     * {@link #bufferBytes(int)}; whichever bound is reached first stops the reading. Both count
     * every message received and not yet handed to the listener, those its thread has taken out
     * of the buffer to work through included.
     */
    public RedisBroadcaster.Builder<T> bufferCapacity(int bufferCapacity) {
        this.bufferCapacity = RedisBroadcastSettings.checkBufferCapacity(bufferCapacity);
        return self();
    }

    /**
     * How many bytes of received messages (payloads and, for pattern subscriptions, channel
     * names) each subscription holds for its listener before it stops reading from Redis;
     * 8 MiB by default, 1 to 1 GiB. A message larger than this is still taken once the
     * buffer is empty, so a subscription holds at most this many bytes or one message,
     * whichever is larger.
     */
    public RedisBroadcaster.Builder<T> bufferBytes(int bufferBytes) {
        this.bufferBytes = RedisBroadcastSettings.checkBufferBytes(bufferBytes);
        return self();
    }

    /**
     * How long a subscribed connection may be quiet before it sends a keep-alive (a repeated
     * SUBSCRIBE); 30 s by default, 1 ms to 1 day. It also sets how soon a silent connection is
     * given up: after this interval plus the same again, at least 2 s, without a byte read
     * (see {@code docs/broadcasts.md}).
     */
    public RedisBroadcaster.Builder<T> keepAliveInterval(Duration keepAliveInterval) {
        this.keepAliveInterval = RedisBroadcastSettings.checkKeepAliveInterval(keepAliveInterval);
        return self();
    }

    /** How long {@code close()} waits for subscription threads to end; 5 s by default, 0 to 1 h. */
    public RedisBroadcaster.Builder<T> closeTimeout(Duration closeTimeout) {
        this.closeTimeout = Checks.between(closeTimeout, Duration.ZERO, Duration.ofHours(1), "closeTimeout");
        return self();
    }

    /**
     * Called after a subscription lost its connection and subscribed again, on that
     * subscription's listener thread, in order with its messages. An exception it throws is
     * logged and ignored. None by default (the gap is logged and counted either way).
     */
    public RedisBroadcaster.Builder<T> onGap(Consumer<? super RedisBroadcaster.GapEvent> onGap) {
        this.onGap = Objects.requireNonNull(onGap, "onGap");
        return self();
    }

    /**
     * Where to report metrics, for example {@code MicrometerQueueMetrics.of(registry)}; none by
     * default. Delivery latency is measured from the message's arrival at the subscriber's
     * connection, since pub/sub messages carry no send time.
     */
    public RedisBroadcaster.Builder<T> metrics(QueueMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return self();
    }

    /**
     * What sees every publish (and may add headers to its messages, such as a trace's) and every
     * message a listener of this broadcaster handles, for example Micrometer observations; none by
     * default.
     */
    public RedisBroadcaster.Builder<T> observations(MessageObservations observations) {
        this.observations = Objects.requireNonNull(observations, "observations");
        return self();
    }

    /** The clock for {@link RedisBroadcaster.GapEvent} times; the system clock by default. */
    public RedisBroadcaster.Builder<T> clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return self();
    }

    private RedisBroadcaster.Builder<T> self() {
        return (RedisBroadcaster.Builder<T>) this;
    }
}
