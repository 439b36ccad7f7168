package io.queuekit.examples.orders;

/** An order that no retry can fix: its message goes straight to the dead letters. */
public class InvalidOrderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidOrderException(String message) {
        super(message);
    }
}
