package io.queuekit.redis.internal;

import io.queuekit.Codec;
import io.queuekit.Headers;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.Payloads;
import io.queuekit.internal.QueueRuntime;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * What the storage of every Redis queue shares: the caller's client, the settings, the queue's
 * transport-neutral {@link QueueRuntime} (lifecycle, consumers, metrics, payloads, dead letters'
 * checks and decoding), its Lua scripts, and its dead letters as stored. For transport modules;
 * applications use the transports' entry classes.
 *
 * <p>A script of the queue is an operation composed with what it includes, from the transport's
 * include folder or else the core's ({@link LuaScript#compose}), so each is atomic and one round
 * trip; {@code docs/redis-scripts.md} says what a transport's includes provide. Dead letters are
 * kept alike by every Redis queue: bodies {@code "<enqueued ms>:<payload>"} by id
 * ({@link StoredBody}), attempts and reasons in hashes, ids in a sorted set by time.
 *
 * <p>A sharded queue ({@code shards(n)}) has one context per shard ({@link #shards}): each holds the
 * keys of its shard and its own scripts bound to them, and all share the queue's client, settings
 * and runtime, so the queue has one lifecycle, one set of consumers and one set of metrics.
 *
 * <p>No command of a queue object may reach Redis before {@link #checkShardCount(String)} passed: the
 * scripts check it themselves ({@link QueueScript}); a command sent outside a script that can be
 * an object's first (a take's {@code LMOVE} or {@code BLMOVE}, a pop) must call it.
 *
 * @param <T> the payload type
 */
public final class RedisContext<T> {
    private static final String CORE_LUA = "/io/queuekit/redis/lua/";
    /** Where the includes every Redis queue shares are. */
    public static final String CORE_INCLUDES = CORE_LUA + "includes/";

    private final UnifiedJedis jedis;
    private final RedisQueueSettings settings;
    private final QueueRuntime<T> runtime;
    private final Payloads<T> payloads;
    private final Class<?> anchor;
    private final List<String> includes;
    private final OneRoundTrip oneRoundTrip;
    private final String label;
    private final String idSuffix;
    /** Scripts composed once per queue, whatever number of shards binds them to its keys. */
    private final Map<String, LuaScript> composed;
    /** The queue's number of shards, checked against the one recorded in Redis. */
    private final ShardCount shardCount;

    private final int shards;

    /**
     * @param transport the transport's name, for messages ({@code redis-list})
     * @param anchor a class of the transport's module, to load its scripts
     * @param includes class-path folder of the transport's includes ({@code /io/queuekit/redis/list/includes/}),
     *     searched before the core's
     * @param shards how many shards hold the queue: 1 (unsharded) to {@link Sharding#MAX_SHARDS}
     */
    public RedisContext(
            UnifiedJedis jedis,
            RedisQueueSettings settings,
            Codec<T> codec,
            String transport,
            Class<?> anchor,
            String includes,
            int shards) {
        this.jedis = jedis;
        this.settings = settings;
        String label = transport + " " + settings.keys().name();
        this.runtime = new QueueRuntime<>(
                label,
                settings.keys().name(),
                transport,
                settings.keys().metricsNamespace(),
                settings.metrics(),
                settings.observations(),
                settings.maxAttempts(),
                new Payloads<>(codec, settings.maxPayloadBytes(), label));
        this.payloads = runtime.payloads();
        this.anchor = anchor;
        this.includes = List.of(includes, CORE_INCLUDES);
        // an ack sent with a fetch could not wait for replicas before the fetch blocks
        this.oneRoundTrip = settings.replicas().waited() ? null : OneRoundTrip.of(jedis);
        this.label = label;
        this.idSuffix = "";
        this.composed = new ConcurrentHashMap<>();
        this.shardCount = new ShardCount(jedis, settings.keys(), shards, settings.replicas(), label);
        this.shards = shards;
    }

    /** Shard {@code index} of {@code count} of the queue of {@code whole}. */
    private RedisContext(RedisContext<T> whole, int index, int count) {
        this.jedis = whole.jedis;
        this.settings = whole.settings.withKeys(whole.settings.keys().shard(index, count));
        this.runtime = whole.runtime;
        this.payloads = whole.payloads;
        this.anchor = whole.anchor;
        this.includes = whole.includes;
        this.oneRoundTrip = whole.oneRoundTrip;
        this.label = whole.label + " shard " + index;
        this.idSuffix = Sharding.idSuffix(index, count);
        this.composed = whole.composed;
        this.shardCount = whole.shardCount;
        this.shards = 1; // a shard is stored whole under its tag
    }

    /**
     * The contexts of the queue's shards, in order, each with the keys of its shard
     * ({@link RedisKeys#shard}) and all sharing this context's runtime and shard count check; for
     * one shard, this context alone, with the queue's unsharded keys (and of a shard, that shard).
     */
    public List<RedisContext<T>> shards() {
        if (shards == 1) {
            return List.of(this);
        }
        List<RedisContext<T>> out = new ArrayList<>(shards);
        for (int i = 0; i < shards; i++) {
            out.add(new RedisContext<>(this, i, shards));
        }
        return List.copyOf(out);
    }

    /**
     * Checks, before this queue object's first command, that Redis records the queue as stored in
     * as many shards as the object was built with, recording the number if none is: one round trip
     * per object, made again after a failure, then nothing.
     *
     * @param what the operation that needs it, which a failure names ({@code "send"})
     * @throws io.queuekit.QueueException if another number is recorded, naming both and what to do
     * @throws io.queuekit.TransportException if Redis could not be asked
     */
    public void checkShardCount(String what) {
        shardCount.check(what);
    }

    /**
     * What ids this context generates end with: nothing for an unsharded queue, {@code ~<shard>}
     * for a shard, so that a sharded queue finds a message by its id ({@link Sharding#home}).
     */
    public String idSuffix() {
        return idSuffix;
    }

    /** The queue's lifecycle, consumers, metrics and dead letters; its store attaches to it. */
    public QueueRuntime<T> runtime() {
        return runtime;
    }

    /**
     * The script {@code operation} (a class-path resource) with what it includes, run with the keys
     * {@code parts}, which must be those it declares.
     *
     * @param what the operation, for error messages ({@code "bury"})
     */
    public QueueScript script(String what, String operation, String... parts) {
        LuaScript lua = composed.computeIfAbsent(operation, op -> LuaScript.compose(anchor, includes, op));
        return new QueueScript(this, what, lua, parts);
    }

    /** The class-path resource of one of the scripts every Redis queue shares. */
    static String core(String file) {
        return CORE_LUA + file;
    }

    public RedisQueueSettings settings() {
        return settings;
    }

    /** The caller's client, which the queue never closes. */
    public UnifiedJedis client() {
        return jedis;
    }

    /**
     * Sends several commands in one round trip on this queue's client; null if the client cannot
     * (see {@link OneRoundTrip}), and the caller sends them one after another.
     */
    public OneRoundTrip oneRoundTrip() {
        return oneRoundTrip;
    }

    /** "transport name", or "transport name shard i", for messages and logs. */
    public String label() {
        return label;
    }

    /**
     * Encodes and size-checks every payload before anything is sent, each framed with
     * {@code headers} ({@link io.queuekit.internal.HeaderFrame}); without headers, as the payload
     * alone.
     */
    public List<byte[]> encodeAll(List<? extends T> all, Headers headers) {
        return payloads.encodeAll(all, headers);
    }

    /** As {@link #encodeAll}, each payload framed with the headers at its index. */
    public List<byte[]> encodeEach(List<? extends T> all, List<Headers> headers) {
        return payloads.encodeEach(all, headers);
    }

    /** Decodes a payload; a failure is a {@link io.queuekit.SerializationException}. */
    public T decode(byte[] payload) {
        return payloads.decode(payload);
    }

    /** The queue's dead letters as stored, which both Redis queues keep alike. */
    public DeadLetterStore<T> deadLetterStore() {
        return new RedisDeadLetters<>(this);
    }

    /**
     * The lease keeper of one {@code consume} call of a queue whose deliveries hold leases: renewal
     * on real time, as the server's leases run, on one thread named {@code queuekit-<name>-leases}.
     */
    public LeaseKeeper leaseRenewal() {
        return LeaseKeeper.renewing("queuekit-" + settings.keys().name() + "-leases", settings.visibilityTimeout());
    }

    /**
     * Whole milliseconds of a delay, rounded up, plus one for a positive delay: the server adds it
     * to its clock truncated to the millisecond, which may lag the true time by up to a
     * millisecond. So a message is never due before the delay has passed.
     */
    public static long delayMillis(Duration delay) {
        if (delay.isZero()) {
            return 0;
        }
        long ms = delay.toMillis();
        return (delay.truncatedTo(ChronoUnit.MILLIS).equals(delay) ? ms : ms + 1) + 1;
    }
}
