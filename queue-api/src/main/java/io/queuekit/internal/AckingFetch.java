package io.queuekit.internal;

import io.queuekit.Delivery;

/**
 * How a managed consumer that fetches one message at a time (batch size one, the default) acks
 * the message its handler finished and fetches the next: in one round trip, the ack travelling
 * with the fetch, where a consumer acking by hand pays one round trip for each. A store offers
 * it through {@link QueueStore#ackingFetch()}.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface AckingFetch<T> {

    /**
     * Acks {@code done}, a delivery of this queue whose handler returned and which nothing
     * settled yet, and fetches the next delivery, waiting up to {@code timeoutNanos} (more than
     * zero); null if none came. The ack is made whatever becomes of the fetch: where the fetch
     * cannot be made (the queue is closing, the thread was interrupted) the ack is made alone,
     * before the exception. An ack that fails is logged, or thrown where it was made alone, and
     * its message comes back when its lease expires, as after any failed ack; a message the fetch
     * took is returned all the same.
     *
     * @throws io.queuekit.QueueClosedException if the queue is closing (after acking {@code done})
     * @throws InterruptedException if the thread was interrupted (after acking {@code done})
     */
    Delivery<T> ackThenPoll(Delivery<T> done, long timeoutNanos) throws InterruptedException;
}
