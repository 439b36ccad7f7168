package io.queuekit.redis;

import io.queuekit.Codec;
import io.queuekit.internal.Checks;
import io.queuekit.internal.DeadLetterRetention;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.RedisQueueSettings;
import io.queuekit.redis.internal.Replicas;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * Settings shared by the builders of every Redis queue. Each setter checks its argument at once
 * and says what is wrong. The client passed in stays the caller's: closing a queue does not close
 * it. Blocked consumers each hold one of its connections while they wait, so size its pool for
 * the consumers you run (Jedis' default pool holds 8).
 *
 * @param <T> the payload type
 * @param <B> the concrete builder
 */
public abstract class RedisQueueBuilder<T, B extends RedisQueueBuilder<T, B>> {
    static {
        QueueSetup.readBuildersWith(RedisQueueBuilder::setup);
    }

    private final UnifiedJedis client;
    private final String name;
    private final Codec<T> codec;
    private String keyPrefix = RedisKeys.DEFAULT_PREFIX;
    private Duration visibilityTimeout = Duration.ofSeconds(30);
    private int maxAttempts = 5;
    private int deadLetterRetention = DeadLetterRetention.DEFAULT;
    private int maxPayloadBytes = PayloadLimit.DEFAULT_BYTES;
    private Duration blockTimeout = Duration.ofSeconds(1);
    private int claimBatch = 100;
    private QueueMetrics metrics = QueueMetrics.NONE;
    private MessageObservations observations = MessageObservations.NONE;
    private Replicas replicas = Replicas.NONE;
    private int shards = 1;
    private Function<? super T, ?> shardBy;

    protected RedisQueueBuilder(UnifiedJedis client, String name, Codec<T> codec) {
        this.client = Objects.requireNonNull(client, "client");
        this.name = Checks.name(name);
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Prefix of every key (default {@code queuekit}): keys are {@code <prefix>:{<name>}:<part>}. */
    public B keyPrefix(String keyPrefix) {
        RedisKeys.of(keyPrefix, name);
        this.keyPrefix = keyPrefix;
        return self();
    }

    /** How long a delivery is leased before it is handed out again (default 30 s; 10 ms to 12 h). */
    public B visibilityTimeout(Duration visibilityTimeout) {
        this.visibilityTimeout =
                Checks.between(visibilityTimeout, Duration.ofMillis(10), Duration.ofHours(12), "visibility timeout");
        return self();
    }

    /** Deliveries of one message before an expired lease dead-letters it (default 5; 1 to 1000). */
    public B maxAttempts(int maxAttempts) {
        this.maxAttempts = Checks.inRange(maxAttempts, 1, 1000, "max attempts");
        return self();
    }

    /**
     * Most dead letters kept, oldest dropped first: 0 (keep none) to 100,000,000, 10,000 by default,
     * the same on every queue transport. The oldest are dropped as messages are dead-lettered, each
     * call that dead-letters dropping at most 200 more than it adds, so that no call holds Redis up
     * for long: a retention lowered below what is stored is reached over later dead letterings.
     */
    public B deadLetterRetention(int deadLetterRetention) {
        this.deadLetterRetention = DeadLetterRetention.check(deadLetterRetention);
        return self();
    }

    /**
     * Largest encoded payload accepted: 1 byte to 256 MiB, 1 MiB by default, the same on every
     * transport. A larger one is refused with {@link IllegalArgumentException}, storing nothing.
     */
    public B maxPayloadBytes(int maxPayloadBytes) {
        this.maxPayloadBytes = PayloadLimit.maxPayloadBytes(maxPayloadBytes);
        return self();
    }

    /**
     * Longest single blocking command (default 1 s; 10 ms to 10 s). A consumer waiting longer
     * issues a new one, so a dead connection, an interrupt or a close is noticed within this time.
     * The client's socket timeout for blocking commands
     * ({@code DefaultJedisClientConfig.blockingSocketTimeoutMillis}) must be set a little longer:
     * Jedis' default of 0 waits forever, and a connection that dies silently would then hold a
     * blocked consumer for good.
     */
    public B blockTimeout(Duration blockTimeout) {
        this.blockTimeout = RedisQueueSettings.checkBlockTimeout(blockTimeout);
        return self();
    }

    /** Most messages one fetch takes (default 100; 1 to 10,000); caps {@code pollBatch}. */
    public B claimBatch(int claimBatch) {
        this.claimBatch = Checks.inRange(claimBatch, 1, 10_000, "claim batch");
        return self();
    }

    /**
     * Where to report metrics, for example {@code MicrometerQueueMetrics.of(registry)} from the
     * {@code queue-micrometer} module; none by default, at no cost.
     */
    public B metrics(QueueMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return self();
    }

    /**
     * Where tracing sees the queue's messages, for example {@code MicrometerObservations.of(registry)}
     * from the {@code queue-micrometer} module: every send and schedule (one call for a whole batch)
     * runs inside it, and the headers it adds are stored with each message, replacing the message's
     * own of the same name; every message a managed consumer ({@code consume}) handles runs inside
     * it with the headers the message arrived with. None by default, at no cost: a message without
     * headers is then stored exactly as it would be without this setting.
     */
    public B observations(MessageObservations observations) {
        this.observations = Objects.requireNonNull(observations, "observations");
        return self();
    }

    /**
     * Makes the writes that decide whether a message is kept or done wait until {@code replicas}
     * replicas hold them (Redis {@code WAIT}): a send, a schedule, an ack, a retry, a dead-letter
     * and a cancel return only once that many replicas acknowledged them within {@code timeout},
     * so that one which returned survives a failover to one of them (Sentinel or Cluster
     * promoting a replica after its primary died). When fewer acknowledge in time it throws
     * {@link io.queuekit.TransportException} saying so; the write is then on the primary, and is
     * lost only if the primary fails before it reaches a replica, so a retried send may duplicate.
     *
     * <p>Off by default ({@code 0}): Redis replicates asynchronously, and a failover may lose writes
     * the old primary acknowledged. Each waited write costs one round trip that lasts until the
     * replicas answer, and a managed consumer's ack no longer travels with its next fetch. Reads,
     * claims and lease renewals never wait: losing one of those in a failover redelivers a message,
     * which at-least-once allows. {@code WAIT} does not make Redis strongly consistent: a write
     * can still be lost if a replica that did not acknowledge it is promoted. Keep {@code timeout}
     * below the client's socket timeout ({@code socketTimeoutMillis}), which bounds how long the
     * reply may take: a wait cut short by it throws as a lost connection does, the write stored or
     * not.
     *
     * @param replicas 0 (off) to 100
     * @param timeout longest wait for them, 1 ms to 60 s; ignored when {@code replicas} is 0
     */
    public B replicas(int replicas, Duration timeout) {
        Checks.inRange(replicas, 0, 100, "replicas");
        this.replicas = replicas == 0
                ? Replicas.NONE
                : new Replicas(
                        replicas,
                        Checks.between(timeout, Duration.ofMillis(1), Duration.ofSeconds(60), "replica timeout"));
        return self();
    }

    /**
     * Spreads the queue over {@code shards} hash tags, so that Redis Cluster spreads one queue over
     * several masters (default 1: every key in one tag, {@code <prefix>:{<name>}:<part>}, as
     * without this setting). Shard {@code i} of {@code n} keeps a whole queue's storage (its ready
     * messages, leases, retries and dead letters) under the tag {@code <name>~<k>}, with {@code k}
     * the smallest number from 0 whose CRC16 slot lies in the {@code i}-th of {@code n} equal ranges
     * of the 16384 slots (one slot clear of either end). The tags depend on the name and {@code n}
     * alone: on a cluster whose masters own equal contiguous ranges, as
     * {@code redis-cli --cluster create} assigns them, {@code n} equal to the number of masters puts
     * one shard on each; {@code ~} cannot occur in a name, so no shard's keys are another queue's.
     *
     * <p>The shards are one queue: one lifecycle, one set of consumers and metrics; {@code stats()}
     * sums the shards, dead letters and {@code peek} cover them all. A message goes to one shard:
     * the next in turn, or that of its key ({@link #shardBy}); a batch send without a key goes to
     * one shard whole. Receivers take from the shards in turn (each call starting at another) and
     * wait on one at a time, for at most one {@linkplain #blockTimeout block timeout}, so a waiting
     * consumer reaches a message on any shard within about one block timeout, and an idle one costs
     * one non-blocking take per shard per block timeout. Order is kept only within a shard: the
     * queue's {@code semantics().ordering()} is {@code PER_KEY} with {@code shardBy}, else
     * {@code NONE}. Each shard keeps up to {@link #deadLetterRetention} dead letters of its own.
     *
     * <p>The number of shards is part of the queue's layout, as its name is, and Redis keeps it: the
     * first queue object to use the queue records it ({@code <prefix>:{<name>}:shards}, under the
     * unsharded tag whatever the number), and every object checks it at its first call, so
     * {@code build()} still makes no call to Redis. The check costs one round trip in an object's
     * lifetime; one that failed (Redis unreachable) is made again at the next call. An object built
     * with another number than the one recorded refuses every call with a
     * {@link io.queuekit.QueueException} naming both numbers, storing and changing nothing: it would
     * look for messages by id or hash in other shards than those holding them (a cancel answering
     * false, a chosen id stored twice, a dead letter not found), and never read the others. To
     * change the number, stop the objects built with the old one, drain the queue with one (ready,
     * in flight, delayed and dead messages), delete the record, then use the new number.
     *
     * @param shards 1 (unsharded) to 256
     * @throws IllegalArgumentException if out of range
     */
    public B shards(int shards) {
        this.shards = RedisQueueSettings.checkShards(shards);
        return self();
    }

    /**
     * Sends each message to the shard of its key, so that messages of one key keep their order
     * (the queue's ordering is then {@code PER_KEY}): the shard is a stable hash of the key's
     * {@code toString()} (FNV-1a of its UTF-8, the same in every JVM and run) modulo the number of
     * {@link #shards}. Without it, messages go to the shards in turn. The function runs in the
     * sending thread, for every payload before anything is stored; a null key is refused with
     * {@link NullPointerException}, storing nothing. With one shard it changes nothing: the whole
     * queue keeps its order.
     *
     * @param key the key of a payload, such as an order's customer id
     */
    public B shardBy(Function<? super T, ?> key) {
        this.shardBy = Objects.requireNonNull(key, "shardBy key");
        return self();
    }

    private QueueSetup<T> setup() {
        return new QueueSetup<>(
                client,
                codec,
                new RedisQueueSettings(
                        RedisKeys.of(keyPrefix, name),
                        visibilityTimeout,
                        maxAttempts,
                        deadLetterRetention,
                        maxPayloadBytes,
                        blockTimeout,
                        claimBatch,
                        metrics,
                        observations,
                        replicas),
                shards,
                shardBy);
    }
}
