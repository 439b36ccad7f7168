package io.queuekit.spring.boot;

import io.queuekit.QueueException;

/**
 * The queuekit configuration of an application cannot work: a property has a value the transport
 * refuses, a listener method names a queue that is not declared or takes the wrong parameter, or a
 * library on the classpath is too old. Thrown while the application context starts, so the
 * application does not start half-configured; Spring Boot prints {@link #getMessage()} as the
 * description and {@link #action()} as the action.
 */
public final class QueueConfigurationException extends QueueException {
    private static final long serialVersionUID = 1L;

    private final String action;

    QueueConfigurationException(String message, String action) {
        this(message, action, null);
    }

    QueueConfigurationException(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    /** What to change, e.g. the property to set. */
    public String action() {
        return action;
    }
}
