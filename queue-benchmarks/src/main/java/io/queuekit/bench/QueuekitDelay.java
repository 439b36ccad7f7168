package io.queuekit.bench;

import io.queuekit.DelayQueue;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Subscription;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Our delay queue as applications use it: {@code scheduleAt} per message, managed consumers. Due
 * times are absolute so lateness is measured against exactly the time the queue was given.
 */
final class QueuekitDelay implements DelayUnderTest {
    private final DelayQueue<String> queue;
    private final AutoCloseable client;
    private Subscription consumers;

    QueuekitDelay(DelayQueue<String> queue, AutoCloseable client) {
        this.queue = queue;
        this.client = client;
    }

    @Override
    public void schedule(String body, long dueMillis) {
        queue.scheduleAt(body, Instant.ofEpochMilli(dueMillis));
    }

    /** A thousand per round trip: {@code sendAll} for messages already due, else {@code scheduleEach}. */
    @Override
    public void load(List<String> bodies, long dueMillis) {
        Instant due = Instant.ofEpochMilli(dueMillis);
        boolean now = dueMillis <= System.currentTimeMillis();
        for (int from = 0; from < bodies.size(); from += 1000) {
            List<String> part = bodies.subList(from, Math.min(bodies.size(), from + 1000));
            if (now) {
                queue.sendAll(part);
            } else {
                queue.scheduleEach(part.stream().map(b -> Scheduled.at(b, due)).toList());
            }
        }
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = queue.consume(d -> sink.accept(d.payload()), Impls.consumeOptions(count, batch));
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
