package io.queuekit;

/**
 * Thrown by any call on a queue, broadcaster or subscription after it was closed, and to a caller
 * that was blocked in {@code take()} or {@code poll(timeout)} when {@code close()} ran.
 */
public class QueueClosedException extends QueueException {
    private static final long serialVersionUID = 1L;

    public QueueClosedException(String name) {
        super(name + " is closed");
    }
}
