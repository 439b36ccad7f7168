package io.queuekit.spring.boot;

import io.queuekit.Delivery;

/**
 * Decides what becomes of a message whose {@link QueueListener} method threw. If the application
 * has a bean of this type, every queue listener calls it after each failed attempt, except for the
 * exceptions in the listener's {@link QueueListener#noRetryFor()}, which dead-letter at once
 * without asking. Without one, a failed message is retried, as {@link Decision#RETRY} does.
 *
 * <pre>{@code
 * @Bean
 * QueueListenerErrorHandler errors() {
 *     return (queue, delivery, exception) -> exception instanceof IllegalArgumentException
 *             ? QueueListenerErrorHandler.Decision.DEAD_LETTER
 *             : QueueListenerErrorHandler.Decision.RETRY;
 * }
 * }</pre>
 *
 * <p>It is called on the listener's worker thread, from several at once when the concurrency is
 * above one, and must be thread-safe. It is not called for a payload that cannot be decoded
 * (dead-lettered at once), nor for an {@link Error}, nor for {@link BroadcastListener} methods,
 * whose messages are not settled. If the listener settled the delivery itself before throwing, the
 * decision changes nothing. A failure it acks is not logged; one it dead-letters is logged as a
 * dead-lettering.
 */
@FunctionalInterface
public interface QueueListenerErrorHandler {

    /** What to do with a message whose listener threw. */
    enum Decision {
        /**
         * As without a handler: retried after the backoff, and dead-lettered, with the exception as
         * the reason, once the queue's {@code max-attempts} deliveries have failed.
         */
        RETRY,
        /** Moved to the dead letters now, with the exception as the reason. */
        DEAD_LETTER,
        /** Acked: deleted as if the listener had returned. */
        ACK
    }

    /**
     * Decides about one failed attempt.
     *
     * @param queue the queue's name, the key under {@code queuekit.queues}
     * @param delivery the message; its {@link Delivery#attempt()} counts this attempt
     * @param exception what the listener threw
     * @return the decision, not null
     * @throws Exception to retry as {@link Decision#RETRY} does, with this exception as the failure
     */
    Decision handle(String queue, Delivery<?> delivery, Exception exception) throws Exception;
}
