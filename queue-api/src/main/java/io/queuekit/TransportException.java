package io.queuekit;

/**
 * The transport (a Redis server, a connection) failed. The cause is the client library's own
 * exception. A {@code send} that throws this may or may not have stored the message, exactly as
 * with any remote call whose reply was lost; a {@code send} that returned normally has stored it.
 */
public class TransportException extends QueueException {
    private static final long serialVersionUID = 1L;

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
