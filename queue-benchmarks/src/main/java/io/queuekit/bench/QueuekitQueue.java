package io.queuekit.bench;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One of our work queues, used as applications use it: {@code send}/{@code sendAll} and managed
 * consumers from {@code consume} with the scenario's concurrency and batch size; or, by hand,
 * consumer threads that {@code poll} and {@code ack} (or {@code pollBatch} and {@code ackAll}).
 */
final class QueuekitQueue implements QueueUnderTest {
    private final MessageQueue<String> queue;
    private final AutoCloseable client;
    private final boolean byHand;
    private Subscription consumers;
    private ConsumerThreads threads;

    /** @param client closed after the queue; null if there is none */
    QueuekitQueue(MessageQueue<String> queue, AutoCloseable client) {
        this(queue, client, false);
    }

    /**
     * @param client closed after the queue; null if there is none
     * @param byHand consumers poll and ack by hand instead of {@code consume}
     */
    QueuekitQueue(MessageQueue<String> queue, AutoCloseable client, boolean byHand) {
        this.queue = queue;
        this.client = client;
        this.byHand = byHand;
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
        if (byHand) {
            threads = ConsumerThreads.start(queue.name(), count, owner -> {
                if (batch == 1) {
                    Delivery<String> d = queue.poll(1, TimeUnit.SECONDS);
                    if (d != null) {
                        sink.accept(d.payload());
                        d.ack();
                    }
                } else {
                    List<Delivery<String>> got = queue.pollBatch(batch, 1, TimeUnit.SECONDS);
                    got.forEach(d -> sink.accept(d.payload()));
                    queue.ackAll(got);
                }
            });
            return;
        }
        consumers = queue.consume(d -> sink.accept(d.payload()), Impls.consumeOptions(count, batch));
    }

    @Override
    public void stopConsumers() {
        if (consumers != null) {
            consumers.close();
        }
        if (threads != null) {
            threads.stop();
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
