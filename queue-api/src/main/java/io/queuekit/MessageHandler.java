package io.queuekit;

/**
 * The application's code run by {@link MessageQueue#consume(MessageHandler, ConsumeOptions)} for
 * each delivery.
 *
 * <p>If it returns normally and has not settled the delivery itself, the delivery is
 * {@linkplain Delivery#ack() acked}. If it throws, the delivery is
 * {@linkplain Delivery#retry(java.time.Duration) retried} after the backoff in
 * {@link ConsumeOptions}, or dead-lettered with the exception as the reason once
 * {@link Delivery#attempt()} reached the queue's maximum attempts. A handler may settle the
 * delivery itself (for example {@code deadLetter} for input it knows to be bad).
 *
 * <p>It is called from several worker threads at once when the concurrency is above one.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface MessageHandler<T> {
    void handle(Delivery<T> delivery) throws Exception;
}
