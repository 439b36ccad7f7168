package io.queuekit.spring.boot;

import java.util.Set;

/**
 * The {@link QueueListener} and {@link BroadcastListener} methods of the application, by id, to
 * start, stop, pause and resume one at a time (as Spring Kafka's {@code KafkaListenerEndpointRegistry}
 * does). A bean of the auto-configuration; inject it where needed.
 *
 * <p>An id is the annotation's {@code id}, else {@code <beanName>.<methodName>}. Every method taking
 * an id throws {@link IllegalArgumentException} naming it if no listener has it. All methods are
 * thread-safe; starting or stopping a listener that already is started or stopped does nothing.
 *
 * <p>When the application context starts, the listeners whose {@code autoStartup} is true start;
 * when it closes, every listener stops, whoever started it.
 */
public interface QueueListenerRegistry {

    /** The ids of all listeners, started or not, in the order the methods were found. */
    Set<String> listenerIds();

    /** Whether the listener was started and not stopped since; a paused listener is running. */
    boolean isRunning(String id);

    /** Whether the listener is paused: {@link #pause(String)} was called and no resume or stop since. */
    boolean isPaused(String id);

    /**
     * Starts the listener: a queue listener's consumer starts fetching, a broadcast listener
     * subscribes. Does nothing if it is running (paused or not).
     */
    void start(String id);

    /**
     * Stops the listener and returns once it is stopped: a queue listener stops fetching and waits
     * for its running handlers to finish and settle, as when the context closes (at most
     * {@code spring.lifecycle.timeout-per-shutdown-phase}); a broadcast listener unsubscribes.
     */
    void stop(String id);

    /**
     * Pauses a running listener; does nothing if it is stopped or already paused. A queue listener
     * stops fetching, waiting for its running handlers as {@link #stop(String)} does: its consumer
     * is closed, but the queue and its messages stay, and {@link #resume(String)} starts a new
     * consumer. A broadcast listener unsubscribes, and misses what is published while paused.
     */
    void pause(String id);

    /** Resumes a paused listener; does nothing if it is not paused. */
    void resume(String id);
}
