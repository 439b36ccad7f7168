package io.queuekit.spi;

import io.queuekit.QueueStats;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Where a transport reports what it does, for metrics. A transport asks for one
 * {@link Observer} per queue or broadcaster when it is built and closes it when the queue
 * closes; without metrics configured it gets {@link #NONE}, whose observer does nothing, so
 * metrics cost nothing unless asked for. The Micrometer implementation lives in the
 * {@code queue-micrometer} module.
 */
public interface QueueMetrics {

    /** No metrics. */
    QueueMetrics NONE = (name, transport, namespace, stats) -> Observer.NONE;

    /**
     * The observer for one queue or channel.
     *
     * @param name the queue or channel name
     * @param transport the transport name, as in {@link io.queuekit.Semantics#transport()}
     * @param namespace what else tells queues of that name apart: the key prefix on Redis, where
     *     queues with the same prefix and name are one queue whichever process opens them (for a
     *     stream topic's consumer group, the base of the topic's keys, {@code <prefix>:{<topic>}});
     *     {@code jvm-<n>} in memory, a number per queue object
     * @param stats reads the queue's current counts, for gauges; null for broadcasters. It may make
     *     a round trip to Redis, so read it rarely, and not where a caller must not block.
     */
    Observer observe(String name, String transport, String namespace, Supplier<QueueStats> stats);

    /** Receives events of one queue or channel. Methods must be cheap and thread-safe, and must not throw. */
    interface Observer extends AutoCloseable {
        /** Does nothing. */
        Observer NONE = new Observer() {};

        /** Messages stored (queues) or published (broadcasters). */
        default void sent(int count) {}

        /** One message handed to a consumer or listener, {@code latency} after it was first sent. */
        default void delivered(Duration latency) {}

        default void acked() {}

        default void retried() {}

        /** Messages handed out again because a lease expired. */
        default void redelivered(long count) {}

        default void deadLettered() {}

        /**
         * A managed consumer's handler or a listener ran for {@code time}; {@code failed} if it
         * threw (for a broadcaster: a listener failure).
         */
        default void handled(Duration time, boolean failed) {}

        /**
         * A subscription missed what was published for a while, and is receiving again (broadcasters
         * only). On Redis it lost its connection and has subscribed again; in memory its listener
         * fell so far behind that messages were dropped for it, and it has taken one again.
         * Reported once per gap, when it ends.
         *
         * @param duration how long the subscription was missing messages, as far as the transport
         *     can tell: on Redis from when it noticed the lost connection to when Redis confirmed
         *     the new subscription (by the broadcaster's clock); in memory from the first message
         *     dropped to the next one taken. Never null or negative.
         */
        default void gap(Duration duration) {}

        /**
         * A subscription subscribed again after losing its connection (broadcasters with a server
         * only). Each is also reported as a {@link #gap(Duration)}; the gaps a transport has without
         * reconnecting (in memory: a listener too far behind) are not.
         */
        default void reconnected() {}

        /**
         * A message a subscription received could not be decoded with the codec, and was skipped
         * without reaching the listener (broadcasters only: a queue's managed consumer dead-letters
         * such a message, reported by {@link #deadLettered()}).
         */
        default void decodeFailed() {}

        /** The queue or broadcaster closed: nothing more is reported, its gauges go. Idempotent. */
        @Override
        default void close() {}
    }
}
