package io.queuekit.internal;

import io.queuekit.Delivery;
import java.util.List;

/**
 * How a managed consumer acks what its handlers finished and fetches what comes next: in one
 * call, the acks travelling with the fetch (in the claim's own script where the store has one),
 * where a consumer acking by hand pays a call for the acks and one for the fetch. A store offers
 * it through {@link QueueStore#ackingFetch()}.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface AckingFetch<T> {

    /**
     * Acks {@code done}, deliveries of this queue whose handlers returned and which nothing
     * settled yet (at most as many as the fetch that handed them out took), and fetches up to
     * {@code max} next deliveries, waiting up to {@code timeoutNanos} (more than zero) for the
     * first; empty if none came. The acks are made whatever becomes of the fetch: where the fetch
     * cannot be made (the queue is closing, the thread was interrupted) they are made alone,
     * before the exception. An ack that fails is logged, or thrown where it was made alone, and
     * its message comes back when its lease expires, as after any failed ack; what the fetch took
     * is returned all the same.
     *
     * @throws io.queuekit.QueueClosedException if the queue is closing (after acking {@code done})
     * @throws InterruptedException if the thread was interrupted (after acking {@code done})
     */
    List<Delivery<T>> ackThenReceive(List<Delivery<T>> done, int max, long timeoutNanos) throws InterruptedException;
}
