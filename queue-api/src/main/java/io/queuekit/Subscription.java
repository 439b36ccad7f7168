package io.queuekit;

/**
 * A running consumer or broadcast subscription. Closing it stops its threads: no new message is
 * taken, calls in progress finish, and {@link #close()} returns once the threads have ended or
 * after a bounded wait. A managed consumer lets its running handlers finish and settle within its
 * {@linkplain ConsumeOptions#shutdownTimeout() shutdown timeout}, then interrupts those still
 * running; what they held and did not settle comes back after its lease.
 *
 * <p>{@code close()} is idempotent and thread-safe.
 */
public interface Subscription extends AutoCloseable {

    /** {@code true} until {@link #close()} ran or the owning queue or broadcaster was closed. */
    boolean isActive();

    @Override
    void close();
}
