package io.queuekit.bench;

import java.util.List;
import java.util.function.Consumer;

/** A work queue in a benchmark: one of ours or a peer, with the client it runs on. */
interface QueueUnderTest extends AutoCloseable {

    void send(String body);

    /** Stores the bodies in as few round trips as the implementation allows. */
    void sendAll(List<String> bodies);

    /** Starts {@code count} consumers fetching up to {@code batch} messages per round trip. */
    void startConsumers(int count, int batch, Consumer<String> sink);

    /** Stops the consumers, waiting a bounded time for them. */
    void stopConsumers();

    /** Messages stored and not yet handed out. */
    long stored();

    /** Stops everything and closes the clients this object opened. */
    @Override
    void close();
}
