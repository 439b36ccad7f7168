package io.queuekit.testing;

/**
 * A Redis server could not be found, started or restarted. The message says what was tried and why it
 * failed, including the tail of the server's own log when there is one; the cause, if any, is the
 * underlying I/O or client exception.
 */
public final class RedisServerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RedisServerException(String message) {
        super(message);
    }

    public RedisServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
