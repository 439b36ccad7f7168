package io.queuekit.redis;

import io.queuekit.Codec;
import io.queuekit.internal.Checks;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.redis.internal.QueueSetup;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.RedisQueueSettings;
import io.queuekit.redis.internal.Replicas;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.internal.DeadLetterRetention;
import java.time.Duration;
import java.util.Objects;
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
    private Replicas replicas = Replicas.NONE;

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
        this.visibilityTimeout = Checks.between(visibilityTimeout, Duration.ofMillis(10), Duration.ofHours(12),
                "visibility timeout");
        return self();
    }

    /** Deliveries of one message before an expired lease dead-letters it (default 5; 1 to 1000). */
    public B maxAttempts(int maxAttempts) {
        this.maxAttempts = Checks.inRange(maxAttempts, 1, 1000, "max attempts");
        return self();
    }

    /**
     * Most dead letters kept, oldest dropped first: 0 (keep none) to 100,000,000, 10,000 by default,
     * the same on every queue transport.
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
        this.blockTimeout = Checks.between(blockTimeout, Duration.ofMillis(10), Duration.ofSeconds(10), "block timeout");
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
        this.replicas = replicas == 0 ? Replicas.NONE
                : new Replicas(replicas, Checks.between(timeout, Duration.ofMillis(1), Duration.ofSeconds(60),
                        "replica timeout"));
        return self();
    }

    private QueueSetup<T> setup() {
        return new QueueSetup<>(client, codec, new RedisQueueSettings(RedisKeys.of(keyPrefix, name),
                visibilityTimeout, maxAttempts, deadLetterRetention, maxPayloadBytes, blockTimeout, claimBatch, metrics,
                replicas));
    }
}
