package io.queuekit;

/**
 * A {@link Codec} could not encode a payload, or could not decode a stored body. On send nothing
 * is stored. On receipt the message is not lost: {@link Delivery#payload()} throws this, the
 * delivery can still be settled, and managed consumers dead-letter it with this exception's
 * message as the reason.
 */
public class SerializationException extends QueueException {
    private static final long serialVersionUID = 1L;

    public SerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}
