package io.queuekit.testing;

/**
 * Why one source failed to start, classified so the resolver knows whether trying another source or port
 * can help.
 */
final class StartFailure extends Exception {

    private static final long serialVersionUID = 1L;

    enum Kind {
        /** Another process holds the port: a new port may work. */
        PORT_IN_USE,
        /** The server refused redis.conf: another binary would most likely refuse it too. */
        CONFIG_REJECTED,
        /** Anything else: the next source may work. */
        FAILED
    }

    private final Kind kind;

    StartFailure(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    StartFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }
}
