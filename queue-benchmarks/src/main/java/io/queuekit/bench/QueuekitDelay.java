package io.queuekit.bench;

import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Our delay queue as applications use it: {@code scheduleAt} per message, managed consumers. Due
 * times are absolute so lateness is measured against exactly the time the queue was given.
 */
final class QueuekitDelay implements DelayUnderTest {
    private static final int LOADERS = 4;

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

    /**
     * Messages already due go in with {@code sendAll}, a thousand per round trip; later ones with
     * {@code scheduleAt} from a few threads, the API having no batch form for them.
     */
    @Override
    public void load(List<String> bodies, long dueMillis) {
        if (dueMillis <= System.currentTimeMillis()) {
            for (int from = 0; from < bodies.size(); from += 1000) {
                queue.sendAll(bodies.subList(from, Math.min(bodies.size(), from + 1000)));
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(LOADERS);
        try {
            List<Future<?>> parts = new ArrayList<>();
            int size = (bodies.size() + LOADERS - 1) / LOADERS;
            for (int from = 0; from < bodies.size(); from += size) {
                List<String> part = bodies.subList(from, Math.min(bodies.size(), from + size));
                parts.add(pool.submit(() -> part.forEach(b -> schedule(b, dueMillis))));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("loading failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
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
