package io.queuekit;

/**
 * Root of every exception queuekit throws. Unchecked, like the exceptions of the Redis clients it
 * wraps; a transport's own exception travels as the {@linkplain #getCause() cause}.
 *
 * <p>Bad arguments are refused with the JDK's exceptions instead ({@link NullPointerException}
 * for nulls, {@link IllegalArgumentException} for values out of range), before anything is sent,
 * so a refused call never changes what is stored.
 */
public class QueueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public QueueException(String message) {
        super(message);
    }

    public QueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
