package io.queuekit.bench;

import java.util.List;
import java.util.function.Consumer;

/** A delay queue in a benchmark: ours or a peer, with the client it runs on. */
interface DelayUnderTest extends AutoCloseable {

    /** Stores one message due at {@code dueMillis} (epoch ms), as an application would. */
    void schedule(String body, long dueMillis);

    /** Stores many messages due at {@code dueMillis} as fast as the implementation allows. */
    void load(List<String> bodies, long dueMillis);

    /**
     * Starts {@code count} consumers. {@code batch} is the most messages one fetch may take where
     * the implementation has such a fetch; the recipes and RDelayedQueue take one per call.
     */
    void startConsumers(int count, int batch, Consumer<String> sink);

    void stopConsumers();

    /** Messages stored and not yet handed out. */
    long stored();

    @Override
    void close();
}
