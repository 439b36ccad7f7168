package io.queuekit.bench;

import io.queuekit.ConsumeOptions;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import java.util.List;
import java.util.function.Consumer;

/**
 * One of our work queues, used as applications use it: {@code send}/{@code sendAll} and managed
 * consumers from {@code consume} with the scenario's concurrency and batch size.
 */
final class QueuekitQueue implements QueueUnderTest {
    private final MessageQueue<String> queue;
    private final AutoCloseable client;
    private Subscription consumers;

    /** @param client closed after the queue; null if there is none */
    QueuekitQueue(MessageQueue<String> queue, AutoCloseable client) {
        this.queue = queue;
        this.client = client;
    }

    @Override
    public void send(String body) {
        queue.send(body);
    }

    @Override
    public void sendAll(List<String> bodies) {
        queue.sendAll(bodies);
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = queue.consume(d -> sink.accept(d.payload()),
                ConsumeOptions.builder().concurrency(count).batchSize(batch).build());
    }

    @Override
    public void stopConsumers() {
        if (consumers != null) {
            consumers.close();
        }
    }

    @Override
    public long stored() {
        QueueStats s = queue.stats();
        return s.ready() + s.delayed();
    }

    @Override
    public void close() {
        stopConsumers();
        queue.close();
        Impls.closeQuietly(client);
    }
}
