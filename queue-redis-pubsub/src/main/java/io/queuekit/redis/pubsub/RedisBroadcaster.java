package io.queuekit.redis.pubsub;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.MessageListener;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.SafeEncoder;

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
 * a classic channel takes any node's pool). A borrowed
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
 * never affected.
 *
 * <h2 id="cluster">Redis Cluster</h2>
 * With a {@code RedisClusterClient} on Redis 7 or later the channel is <b>sharded</b> (unless the
 * broadcaster is built with {@link Builder#sharded(boolean) sharded(false)}): {@code SPUBLISH} and
 * {@code SSUBSCRIBE} on the master that serves the channel's slot, so a message travels to that one
 * shard rather than to every node, and {@link #publish} counts every subscription of the channel
 * wherever its publisher and subscribers are connected. When that master fails over or the slot
 * moves, Redis ends the sharded subscriptions; each subscribes again on the slot's new master and
 * reports the gap as above. Sharded pub/sub has no patterns, so {@link #subscribePattern} throws
 * {@link UnsupportedOperationException} on a sharded channel.
 *
 * <p>On Redis 6.2 (no sharded pub/sub), or with {@code sharded(false)}, the channel is classic:
 * {@code PUBLISH} is copied to every node of the cluster and a subscription may sit on any node, so
 * delivery is the same but <b>the count {@code publish} returns covers only the subscriptions
 * connected to the node that received the message</b>; 0 there does not mean no one received it.
 * All publishers and subscribers of a channel must agree: sharded and classic messages never meet.
 *
 * <h2>Slow listeners</h2>
 * When a listener cannot keep up and its buffer is full (by count or by bytes, whichever comes
 * first), the reading thread stops reading: the backlog then waits in Redis, never in this JVM's
 * heap beyond the buffer, and the other subscriptions carry on. If the backlog passes the server's {@code client-output-buffer-limit
 * pubsub} (by default 32 MB at once, or 8 MB for 60 s), Redis closes the connection; the
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

    private final UnifiedJedis client;
    private final ConnectionSource connections;
    private final Heartbeat heartbeat;
    private final String name;
    private final String keyPrefix;
    private final String channelKey;
    private final byte[] channelKeyBytes;
    private final Codec<T> codec;
    private final int maxPayloadBytes;
    private final Settings settings;
    private final String closedName;
    private final Counters totals = new Counters(null);
    private final AtomicInteger subscriberNumbers = new AtomicInteger();
    private final Set<Subscriber<T>> subscribers = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The client when it is a cluster client that may shard this channel; else null. */
    private final RedisClusterClient cluster;
    /** Whether the channel is sharded; null until the cluster's version was read. */
    private volatile Boolean sharded;

    private RedisBroadcaster(Builder<T> b) {
        this.client = b.client;
        this.connections = ConnectionSource.of(b.client);
        this.cluster = b.sharded && b.client instanceof RedisClusterClient c ? c : null;
        if (cluster == null) {
            this.sharded = false;
        }
        this.name = b.channel;
        this.heartbeat = new Heartbeat("queuekit-" + name + "-keepalive");
        this.keyPrefix = b.keyPrefix;
        this.channelKey = RedisKeys.of(keyPrefix, name).base();
        this.channelKeyBytes = channelKey.getBytes(StandardCharsets.UTF_8);
        this.codec = b.codec;
        this.maxPayloadBytes = b.maxPayloadBytes;
        this.settings = new Settings(b.subscribeTimeout, b.initialBackoff, b.maxBackoff, b.bufferCapacity,
                b.bufferBytes, b.keepAliveInterval, b.closeTimeout, b.onGap, b.clock,
                b.metrics.observe(name, SEMANTICS.transport(), keyPrefix, null));
        this.closedName = "broadcaster " + name;
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
        checkOpen();
        byte[] body = encode(message);
        boolean spublish = shardedOrFail("publish");
        try {
            long received = spublish ? cluster.spublish(channelKeyBytes, body) : client.publish(channelKeyBytes, body);
            settings.observer().sent(1);
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
        checkOpen();
        List<byte[]> bodies = new ArrayList<>(copy.size());
        for (T m : copy) {
            bodies.add(encode(m));
        }
        if (bodies.isEmpty()) {
            return new long[0];
        }
        boolean spublish = shardedOrFail("publish");
        try (AbstractPipeline pipeline = client.pipelined()) {
            List<Response<Long>> replies = new ArrayList<>(bodies.size());
            for (byte[] body : bodies) {
                replies.add(spublish ? ((ClusterPipeline) pipeline).spublish(channelKeyBytes, body)
                        : pipeline.publish(channelKeyBytes, body));
            }
            pipeline.sync();
            settings.observer().sent(bodies.size());
            long[] received = new long[replies.size()];
            for (int i = 0; i < received.length; i++) {
                received[i] = replies.get(i).get();
            }
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
        checkOpen();
        Subscriber.Kind kind = shardedOrFail("subscribe") ? Subscriber.Kind.SHARDED : Subscriber.Kind.CHANNEL;
        return start(channelKeyBytes, kind, name, (channel, message) -> listener.onMessage(message),
                key -> name);
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
        checkPattern(pattern);
        Objects.requireNonNull(listener, "listener");
        checkOpen();
        if (shardedOrFail("subscribePattern")) {
            throw new UnsupportedOperationException(channelKey + " is a sharded channel (SSUBSCRIBE, Redis 7+ on a "
                    + "cluster), and sharded pub/sub has no patterns: subscribe to each channel, or build every "
                    + "broadcaster of the cluster with sharded(false) for classic pub/sub, whose publish() counts "
                    + "only the subscribers connected to the node that received the message");
        }
        String head = keyPrefix + ":{";
        byte[] key = (head + pattern + "}").getBytes(StandardCharsets.UTF_8);
        return start(key, Subscriber.Kind.PATTERN, pattern, listener,
                channelBytes -> channelName(head, new String(channelBytes, StandardCharsets.UTF_8)));
    }

    private RedisSubscription start(byte[] target, Subscriber.Kind kind, String channel,
            PatternListener<? super T> listener, Function<byte[], String> channelNames) {
        String threadName = "queuekit-" + name + "-subscriber-" + subscriberNumbers.incrementAndGet();
        ConnectionSource source = kind == Subscriber.Kind.SHARDED
                ? ConnectionSource.forSlot(cluster, JedisClusterCRC16.getSlot(channelKeyBytes)) : connections;
        Subscriber<T> s = new Subscriber<>(client, source, heartbeat, target, kind, channel, threadName, closedName, codec,
                listener, channelNames, settings, new Counters(totals), subscribers::remove);
        subscribers.add(s);
        if (closed.get()) {
            // close() may have run before add() and missed this one
            s.beginClose();
            throw new QueueClosedException(closedName);
        }
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
        return totals.reconnects();
    }

    /** Messages on which a listener threw, over every subscription this broadcaster made. */
    public long listenerFailures() {
        return totals.listenerFailures();
    }

    /** Messages skipped because the codec could not decode them, over every subscription. */
    public long decodeFailures() {
        return totals.decodeFailures();
    }

    /**
     * Ends every subscription and waits, at most {@link Builder#closeTimeout(Duration)} in all, for
     * their threads; later calls throw {@link QueueClosedException}. Idempotent. Messages still
     * buffered for a listener are dropped. The Redis client is not closed.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Subscriber<T>> all = new ArrayList<>(subscribers);
        for (Subscriber<T> s : all) {
            s.beginClose();
        }
        long deadline = System.nanoTime() + settings.closeTimeout().toNanos();
        for (Subscriber<T> s : all) {
            s.awaitTermination(deadline);
        }
        heartbeat.close(deadline);
        settings.observer().close();
    }

    @Override
    public String toString() {
        return "RedisBroadcaster[" + channelKey + "]";
    }

    /**
     * Whether this channel is sharded: a cluster client (unless built with {@code sharded(false)})
     * on Redis 7 or later. Read from the server once, on the first publish or subscribe.
     */
    private boolean sharded() {
        Boolean known = sharded;
        if (known != null) {
            return known;
        }
        int slot = JedisClusterCRC16.getSlot(channelKeyBytes);
        String info;
        try (Connection c = cluster.getConnectionFromSlot(slot)) {
            info = String.valueOf(SafeEncoder.encodeObject(
                    c.executeCommand(new CommandArguments(Protocol.Command.INFO).add("server"))));
        }
        known = majorVersion(info) >= 7;
        sharded = known;
        return known;
    }

    private boolean shardedOrFail(String what) {
        try {
            return sharded();
        } catch (JedisException e) {
            throw new TransportException("could not " + what + " to " + channelKey
                    + ": could not read the Redis version of the cluster: " + e.getMessage(), e);
        }
    }

    /** The major version in an {@code INFO server} reply; 0 if it does not say. */
    static int majorVersion(String info) {
        int at = info.indexOf("redis_version:");
        if (at < 0) {
            return 0;
        }
        int from = at + "redis_version:".length();
        int to = from;
        while (to < info.length() && Character.isDigit(info.charAt(to))) {
            to++;
        }
        return to == from ? 0 : Integer.parseInt(info.substring(from, to));
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new QueueClosedException(closedName);
        }
    }

    private byte[] encode(T message) {
        return PayloadLimit.check(Codecs.encode(codec, message), maxPayloadBytes, channelKey + ": message");
    }

    static String checkPattern(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        if (pattern.isEmpty() || pattern.length() > 100) {
            throw new IllegalArgumentException("pattern must be 1 to 100 characters, was " + pattern.length());
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || ".-_:*?[]^".indexOf(c) >= 0;
            if (!ok) {
                throw new IllegalArgumentException("pattern may hold only letters, digits, . _ - : and the glob "
                        + "characters * ? [ ] ^ but has '"
                        + (Character.isISOControl(c) ? "\\u" + Integer.toHexString(c) : c) + "' at index " + i
                        + ": " + pattern.replaceAll("\\p{Cntrl}", "?"));
            }
        }
        checkBrackets(pattern);
        return pattern;
    }

    /**
     * Refuses a pattern whose {@code [...]} sets are not closed within it, reading them as Redis's
     * glob matcher does: a {@code ^} right after {@code [} negates, the first {@code ]} closes (so
     * {@code []} is an empty set), and {@code x-y} is a range whose end may itself be {@code ]}.
     * An open set would take the closing brace of {@code <keyPrefix>:{<pattern>}} into it, and the
     * pattern could then match channels outside the broadcaster's namespace.
     */
    private static void checkBrackets(String pattern) {
        String subscribed = pattern + "}"; // what Redis reads after the pattern: the hash tag's closing brace
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == ']') {
                throw new IllegalArgumentException("pattern has a ']' at index " + i + " that closes no '[': "
                        + pattern);
            }
            if (c != '[') {
                i++;
                continue;
            }
            int open = i++;
            if (subscribed.charAt(i) == '^') {
                i++;
            }
            while (true) {
                if (i >= pattern.length()) {
                    throw new IllegalArgumentException("pattern has a '[' at index " + open + " that no ']' closes"
                            + " (in a range such as a-] the ']' is the range's end): " + pattern + "; Redis would "
                            + "read the channel's closing brace into the set and could match channels that are "
                            + "not this broadcaster's");
                }
                if (subscribed.charAt(i) == ']') {
                    i++;
                    break;
                }
                i += subscribed.length() - i >= 3 && subscribed.charAt(i + 1) == '-' ? 3 : 1;
            }
        }
    }

    /**
     * The name in a broadcaster channel ({@code head}, a valid channel name, a closing brace), or
     * null if {@code channel} is not one: a glob's {@code *}, {@code ?} or negated set also matches braces and other
     * characters no channel name holds, so a pattern can match channels that other clients made.
     */
    static String channelName(String head, String channel) {
        if (!channel.startsWith(head) || !channel.endsWith("}")) {
            return null;
        }
        String name = channel.substring(head.length(), channel.length() - 1);
        try {
            return Checks.name(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
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
    public static final class RedisSubscription implements Subscription {
        private final Subscriber<?> subscriber;

        private RedisSubscription(Subscriber<?> subscriber) {
            this.subscriber = subscriber;
        }

        /** The name of the listener's thread, {@code queuekit-<channel>-subscriber-<n>}. */
        public String name() {
            return subscriber.name();
        }

        /** The channel name, or the pattern of a pattern subscription. */
        public String channel() {
            return subscriber.channel();
        }

        /** Whether this is a pattern subscription. */
        public boolean isPattern() {
            return subscriber.isPattern();
        }

        /** {@code true} until {@link #close()} ran or the broadcaster was closed; stays {@code true}
         *  while reconnecting. */
        @Override
        public boolean isActive() {
            return subscriber.isActive();
        }

        /** Whether Redis has confirmed the subscription on the current connection (false while
         *  reconnecting and after close). */
        public boolean isConnected() {
            return subscriber.isConnected();
        }

        /** How many times this subscription subscribed again after losing its connection, each time
         *  a gap in what it received. */
        public long reconnects() {
            return subscriber.counters().reconnects();
        }

        /** Messages on which the listener threw. */
        public long listenerFailures() {
            return subscriber.counters().listenerFailures();
        }

        /** Messages skipped because the codec could not decode them. */
        public long decodeFailures() {
            return subscriber.counters().decodeFailures();
        }

        /** Bytes received and not yet handed to the listener; for tests. */
        long bufferedBytes() {
            return subscriber.bufferedBytes();
        }

        @Override
        public void close() {
            subscriber.close();
        }

        @Override
        public String toString() {
            return "RedisSubscription[" + name() + (isActive() ? "" : ", closed") + "]";
        }
    }

    /**
     * Configures a {@link RedisBroadcaster}. Every setter validates its argument at once and says
     * what is wrong. Not thread-safe; {@link #build()} may be called more than once.
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final UnifiedJedis client;
        private final String channel;
        private final Codec<T> codec;
        private String keyPrefix = "queuekit";
        private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
        private Duration subscribeTimeout = Duration.ofSeconds(10);
        private Duration initialBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private int bufferCapacity = 1024;
        private int bufferBytes = DEFAULT_BUFFER_BYTES;
        private Duration keepAliveInterval = Duration.ofSeconds(30);
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Consumer<? super GapEvent> onGap;
        private Clock clock = Clock.systemUTC();
        private QueueMetrics metrics = QueueMetrics.NONE;
        private boolean sharded = true;

        private Builder(UnifiedJedis client, String channel, Codec<T> codec) {
            this.client = Objects.requireNonNull(client, "client");
            this.channel = Checks.name(channel);
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /**
         * Whether a {@code RedisClusterClient} on Redis 7 or later shards the channel (true by
         * default): {@code SPUBLISH} goes to the one master that serves the channel's slot and
         * {@code publish} returns how many subscriptions received the message there, which is every
         * subscription of the channel, since each {@code SSUBSCRIBE}s on that master. With
         * {@code false}, or on Redis 6.2, classic {@code PUBLISH} is copied to every node of the
         * cluster and the count covers only subscriptions connected to the node that received it
         * (a message counted 0 may still have been received on other nodes). Every publisher and
         * subscriber of a channel must agree: sharded and classic messages never meet. Pattern
         * subscriptions need classic pub/sub. Ignored for other clients.
         */
        public Builder<T> sharded(boolean sharded) {
            this.sharded = sharded;
            return this;
        }

        /**
         * The first part of the Redis channel, {@code <keyPrefix>:{<name>}}; {@code queuekit} by
         * default. Same rules as a channel name.
         */
        public Builder<T> keyPrefix(String keyPrefix) {
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            try {
                this.keyPrefix = Checks.name(keyPrefix);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("keyPrefix: " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * The largest encoded message {@link #publish} accepts: 1 byte to 256 MiB, 1 MiB by default,
         * the same rule as the queues'. A larger one is refused with {@link IllegalArgumentException},
         * publishing nothing.
         */
        public Builder<T> maxPayloadBytes(int maxPayloadBytes) {
            this.maxPayloadBytes = PayloadLimit.maxPayloadBytes(maxPayloadBytes);
            return this;
        }

        /** How long {@code subscribe} waits for Redis to confirm; 10 s by default, 1 ms to 1 h. */
        public Builder<T> subscribeTimeout(Duration subscribeTimeout) {
            this.subscribeTimeout = Checks.between(subscribeTimeout, Duration.ofMillis(1), Duration.ofHours(1),
                    "subscribeTimeout");
            return this;
        }

        /**
         * The wait before the first attempt to subscribe again after a lost connection, doubled
         * after each failed attempt up to {@code max} (each wait varied by up to 20% so that many
         * subscribers do not reconnect in step); 100 ms and 5 s by default, each 1 ms to 1 h.
         */
        public Builder<T> reconnectBackoff(Duration initial, Duration max) {
            Checks.between(initial, Duration.ofMillis(1), Duration.ofHours(1), "initial reconnect backoff");
            Checks.between(max, Duration.ofMillis(1), Duration.ofHours(1), "max reconnect backoff");
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("max reconnect backoff must not be below the initial one: "
                        + max + " < " + initial);
            }
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /**
         * How many received messages each subscription holds for its listener before it stops
         * reading from Redis; 1024 by default, 1 to 16,777,216. The buffer is also bounded by
         * {@link #bufferBytes(int)}; whichever bound is reached first stops the reading.
         */
        public Builder<T> bufferCapacity(int bufferCapacity) {
            this.bufferCapacity = Checks.inRange(bufferCapacity, 1, 1 << 24, "bufferCapacity");
            return this;
        }

        /**
         * How many bytes of received messages (payloads and, for pattern subscriptions, channel
         * names) each subscription holds for its listener before it stops reading from Redis;
         * 8 MiB by default, 1 to 1 GiB. A message larger than this is still taken once the
         * buffer is empty, so a subscription holds at most this many bytes or one message,
         * whichever is larger.
         */
        public Builder<T> bufferBytes(int bufferBytes) {
            this.bufferBytes = Checks.inRange(bufferBytes, 1, 1 << 30, "bufferBytes");
            return this;
        }

        /**
         * How long a subscribed connection may be quiet before it sends a keep-alive (a repeated
         * SUBSCRIBE); 30 s by default, 1 ms to 1 day. It also sets how soon a silent connection is
         * given up: after this interval plus the same again, at least 2 s, without a byte read
         * (see "Keep-alive, and dead connections" in the class comment).
         */
        public Builder<T> keepAliveInterval(Duration keepAliveInterval) {
            this.keepAliveInterval = Checks.between(keepAliveInterval, Duration.ofMillis(1), Duration.ofDays(1),
                    "keepAliveInterval");
            return this;
        }

        /** How long {@code close()} waits for subscription threads to end; 5 s by default, 0 to 1 h. */
        public Builder<T> closeTimeout(Duration closeTimeout) {
            this.closeTimeout = Checks.between(closeTimeout, Duration.ZERO, Duration.ofHours(1), "closeTimeout");
            return this;
        }

        /**
         * Called after a subscription lost its connection and subscribed again, on that
         * subscription's listener thread, in order with its messages. An exception it throws is
         * logged and ignored. None by default (the gap is logged and counted either way).
         */
        public Builder<T> onGap(Consumer<? super GapEvent> onGap) {
            this.onGap = Objects.requireNonNull(onGap, "onGap");
            return this;
        }

        /**
         * Where to report metrics, for example {@code MicrometerQueueMetrics.of(registry)}; none by
         * default. Delivery latency is measured from the message's arrival at the subscriber's
         * connection, since pub/sub messages carry no send time.
         */
        public Builder<T> metrics(QueueMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** The clock for {@link GapEvent} times; the system clock by default. */
        public Builder<T> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** A new broadcaster; no connection is made until the first publish or subscribe. */
        public RedisBroadcaster<T> build() {
            return new RedisBroadcaster<>(this);
        }
    }
}
