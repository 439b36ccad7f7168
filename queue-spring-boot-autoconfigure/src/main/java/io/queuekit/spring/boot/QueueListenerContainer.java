package io.queuekit.spring.boot;

import io.queuekit.ConsumeOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the listener methods: when the context has started, a managed consumer per
 * {@link QueueListener} method and a subscription per {@link BroadcastListener} method whose
 * {@code autoStartup} is true; when it closes, they all stop in this lifecycle phase, before any
 * bean is destroyed, so the Redis client is still open while running handlers finish and their
 * messages are acked. Each consumer waits for its handlers at most the shutdown timeout
 * ({@code spring.lifecycle.timeout-per-shutdown-phase} less a margin for the acks), all of them at
 * once. As the {@link QueueListenerRegistry}, it starts, stops and pauses them one by one.
 */
final class QueueListenerContainer implements SmartLifecycle, QueueListenerRegistry {
    /** Stopped before the web server stops taking requests, started after it. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;
    /** The longest shutdown timeout {@code ConsumeOptions} takes. */
    private static final Duration LONGEST_WAIT = Duration.ofDays(1);

    /** By id, in the order the methods were found. */
    private final Map<String, ManagedListener> listeners;

    private volatile boolean started;

    QueueListenerContainer(
            QueueDefinitions definitions,
            QueueCatalog catalog,
            BeanFactory beans,
            Duration phaseTimeout,
            BroadcastSubscriptions broadcasts,
            @Nullable QueueListenerErrorHandler errorHandler) {
        Duration shutdownTimeout = shutdownTimeout(phaseTimeout);
        Map<String, ManagedListener> byId = new LinkedHashMap<>();
        for (ListenerMethod listener : definitions.listeners) {
            ManagedListener other = byId.get(listener.id());
            if (other != null) {
                throw new QueueConfigurationException(
                        other.method().describe() + " and " + listener.describe() + " have the same listener id '"
                                + listener.id() + "'",
                        "Give one of them an id of its own: @"
                                + (listener.broadcast() ? "BroadcastListener" : "QueueListener")
                                + "(id = \"...\").");
            }
            ConsumeOptions options =
                    listener.broadcast() ? null : options(definitions, listener, shutdownTimeout, beans);
            byId.put(listener.id(), new ManagedListener(listener, catalog, beans, options, broadcasts, errorHandler));
        }
        this.listeners = Collections.unmodifiableMap(byId);
    }

    /** How long a consumer waits for running handlers: the phase timeout less a margin for the acks, at most a day. */
    static Duration shutdownTimeout(Duration phaseTimeout) {
        Duration margin = phaseTimeout.dividedBy(10).compareTo(Duration.ofSeconds(1)) < 0
                ? phaseTimeout.dividedBy(10)
                : Duration.ofSeconds(1);
        Duration wait = phaseTimeout.minus(margin);
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
    }

    /**
     * The queue's {@code retry.*} and {@code consumer.*}, the listener's own backoff where it has
     * one, and virtual threads where the application runs on them.
     */
    private static ConsumeOptions options(
            QueueDefinitions definitions, ListenerMethod listener, Duration shutdownTimeout, BeanFactory beans) {
        ConsumeOptions.Builder options = QueueFactory.consumeOptions(definitions.queues.get(listener.queue()))
                .concurrency(listener.concurrency())
                .shutdownTimeout(shutdownTimeout);
        if (beans.containsBean(VirtualThreads.BEAN)) {
            options.threadFactory(beans.getBean(VirtualThreads.BEAN, ThreadFactory.class));
        }
        if (listener.initialBackoff() != null || listener.maxBackoff() != null) {
            ConsumeOptions queue = options.build();
            Duration initial = listener.initialBackoff() != null ? listener.initialBackoff() : queue.initialBackoff();
            Duration max = listener.maxBackoff() != null
                    ? listener.maxBackoff()
                    : queue.maxBackoff().compareTo(initial) < 0 ? initial : queue.maxBackoff();
            try {
                options.backoff(initial, max);
            } catch (IllegalArgumentException e) {
                throw new QueueConfigurationException(
                        listener.describe() + " retries with initialBackoff " + initial + " and maxBackoff " + max
                                + ", which are refused: " + e.getMessage(),
                        "Correct initialBackoff and maxBackoff on " + listener.describe()
                                + ", or the queue's retry settings they are taken from.",
                        e);
            }
        }
        return options.build();
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        try {
            for (ManagedListener listener : listeners.values()) {
                if (listener.method().autoStartup()) {
                    listener.start();
                }
            }
        } catch (RuntimeException e) {
            stopAll();
            throw e;
        }
        started = true;
    }

    @Override
    public void stop() {
        stopAll();
    }

    @Override
    public void stop(Runnable callback) {
        try {
            stopAll();
        } finally {
            callback.run();
        }
    }

    /** Stops every listener at once, each on its own thread, and waits for all. */
    private synchronized void stopAll() {
        List<Thread> closing = new ArrayList<>();
        for (ManagedListener listener : listeners.values()) {
            if (listener.isRunning()) {
                Thread t = new Thread(
                        listener::stop, "queuekit-" + listener.method().queue() + "-stop");
                t.start();
                closing.add(t);
            }
        }
        for (Thread t : closing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public Set<String> listenerIds() {
        return listeners.keySet();
    }

    @Override
    public boolean isRunning(String id) {
        return listener(id).isRunning();
    }

    @Override
    public boolean isPaused(String id) {
        return listener(id).isPaused();
    }

    @Override
    public void start(String id) {
        listener(id).start();
    }

    @Override
    public void stop(String id) {
        listener(id).stop();
    }

    @Override
    public void pause(String id) {
        listener(id).pause();
    }

    @Override
    public void resume(String id) {
        listener(id).resume();
    }

    private ManagedListener listener(String id) {
        ManagedListener listener = listeners.get(id);
        if (listener == null) {
            throw new IllegalArgumentException(
                    "no queuekit listener has the id '" + id + "'; the ids are " + listeners.keySet());
        }
        return listener;
    }
}
