package io.queuekit;

/**
 * A running consumer or broadcast subscription. Closing it stops its threads: calls in progress
 * finish (a handler is not interrupted mid-message unless it blocks interruptibly), no new
 * message is taken, and {@link #close()} returns once the threads have ended or after a bounded
 * wait. Deliveries a stopped consumer had taken but not settled come back after their lease.
 *
 * <p>{@code close()} is idempotent and thread-safe.
 */
public interface Subscription extends AutoCloseable {

    /** {@code true} until {@link #close()} ran or the owning queue or broadcaster was closed. */
    boolean isActive();

    @Override
    void close();
}
