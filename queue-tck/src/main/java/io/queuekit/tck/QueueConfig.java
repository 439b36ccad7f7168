package io.queuekit.tck;

import io.queuekit.Codec;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * The settings a contract test asks of the queue it creates. A transport's
 * {@code createQueue(name, config)} must build its queue with exactly these values.
 *
 * @param visibilityTimeout how long a delivery is leased before it is delivered again
 * @param maxAttempts deliveries of one message before it goes to the dead letters
 * @param deadLetterRetention dead letters kept, the oldest dropped first; 0 keeps none
 * @param metrics where the queue reports what it does: the suite reads it to check what a queue
 *     settled after it was closed
 * @param codec how payloads are stored ({@link Codec#utf8()} unless a test needs a codec that
 *     fails); a transport that can also store objects without a codec may run the suite once
 *     without one, declaring so with {@link MessageQueueContractTest#appliesCodec()}
 * @param key the key of a message, for a transport that can keep the order of each key's messages
 *     ({@link io.queuekit.Semantics.Ordering#PER_KEY}): build the queue with it, as a sharded Redis
 *     queue's {@code shardBy}; null unless the test checks the order per key, and a transport
 *     that has no use for it ignores it
 * @param observations what sees every send and every message a managed consumer handles: give it
 *     to the builder's {@code observations(...)}; {@link MessageObservations#NONE} unless the test
 *     checks observations, which then fails if the queue never shows them a send
 */
public record QueueConfig(
        Duration visibilityTimeout,
        int maxAttempts,
        int deadLetterRetention,
        QueueMetrics metrics,
        Codec<String> codec,
        Function<String, String> key,
        MessageObservations observations) {

    public QueueConfig {
        Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(observations, "observations");
        if (visibilityTimeout.isNegative() || visibilityTimeout.isZero()) {
            throw new IllegalArgumentException("visibility timeout must be positive: " + visibilityTimeout);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be positive: " + maxAttempts);
        }
        if (deadLetterRetention < 0) {
            throw new IllegalArgumentException("dead-letter retention must not be negative: " + deadLetterRetention);
        }
    }

    /** Settings without observations. */
    public QueueConfig(
            Duration visibilityTimeout,
            int maxAttempts,
            int deadLetterRetention,
            QueueMetrics metrics,
            Codec<String> codec,
            Function<String, String> key) {
        this(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, MessageObservations.NONE);
    }

    /** Settings without a key or observations. */
    public QueueConfig(
            Duration visibilityTimeout,
            int maxAttempts,
            int deadLetterRetention,
            QueueMetrics metrics,
            Codec<String> codec) {
        this(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, null);
    }

    /** Settings without metrics or a key, storing payloads as UTF-8. */
    public QueueConfig(Duration visibilityTimeout, int maxAttempts, int deadLetterRetention) {
        this(visibilityTimeout, maxAttempts, deadLetterRetention, QueueMetrics.NONE, Codec.utf8());
    }

    /** The same with a different visibility timeout. */
    public QueueConfig withVisibilityTimeout(Duration visibilityTimeout) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }

    /** The same with a different maximum of attempts. */
    public QueueConfig withMaxAttempts(int maxAttempts) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }

    /** The same with a different dead-letter retention. */
    public QueueConfig withDeadLetterRetention(int deadLetterRetention) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }

    /** The same with a different codec. */
    public QueueConfig withCodec(Codec<String> codec) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }

    /** The same with a message key (null for none). */
    public QueueConfig withKey(Function<String, String> key) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }

    /** The same with other observations. */
    public QueueConfig withObservations(MessageObservations observations) {
        return new QueueConfig(visibilityTimeout, maxAttempts, deadLetterRetention, metrics, codec, key, observations);
    }
}
