package io.queuekit.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@code RBlockingQueue}: {@code add} to send, {@code poll(timeout)} (BLPOP) to receive.
 * In batch mode {@code addAll} and {@code poll(limit)}, falling back to a blocking poll when empty.
 */
final class RedissonQueuePeer implements QueueUnderTest {
    private final RedissonClient redisson;
    private final RBlockingQueue<String> queue;
    private ConsumerThreads consumers;

    RedissonQueuePeer(String uri, String name) {
        this.redisson = Clients.redisson(uri);
        this.queue = redisson.getBlockingQueue("peer:rqueue:" + name);
    }

    @Override
    public void send(String body) {
        queue.add(body);
    }

    @Override
    public void sendAll(List<String> bodies) {
        queue.addAll(bodies);
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = ConsumerThreads.start("redisson-queue", count, owner -> {
            if (batch > 1) {
                List<String> some = queue.poll(batch);
                if (!some.isEmpty()) {
                    some.forEach(sink);
                    return;
                }
            }
            String one = queue.poll(1, TimeUnit.SECONDS);
            if (one != null) {
                sink.accept(one);
            }
        });
    }

    @Override
    public void stopConsumers() {
        if (consumers != null) {
            consumers.stop();
        }
    }

    @Override
    public long stored() {
        return queue.size();
    }

    @Override
    public void close() {
        stopConsumers();
        redisson.shutdown();
    }
}
