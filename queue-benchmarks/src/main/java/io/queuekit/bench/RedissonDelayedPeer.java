package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@code RDelayedQueue} as its documentation shows it: {@code offer(e, delay, unit)} on
 * the delayed queue, consumers blocking on the destination {@code RBlockingQueue}. Redisson has
 * deprecated it (message loss, redisson#6568) but still ships it; due messages move to the
 * destination only while some client runs its transfer task, here this one.
 */
@SuppressWarnings("deprecation")
final class RedissonDelayedPeer implements DelayUnderTest {
    private final RedissonClient redisson;
    private final RBlockingQueue<String> destination;
    private final RDelayedQueue<String> delayed;
    private ConsumerThreads consumers;

    RedissonDelayedPeer(String uri, String name) {
        this.redisson = Clients.redisson(uri);
        this.destination = redisson.getBlockingQueue("peer:rdelayed:" + name);
        this.delayed = redisson.getDelayedQueue(destination);
    }

    @Override
    public void schedule(String body, long dueMillis) {
        delayed.offer(body, Math.max(0, dueMillis - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
    }

    @Override
    public void load(List<String> bodies, long dueMillis) {
        for (int from = 0; from < bodies.size(); from += 1000) {
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            long delay = Math.max(0, dueMillis - System.currentTimeMillis());
            for (String b : bodies.subList(from, Math.min(bodies.size(), from + 1000))) {
                pending.add(delayed.offerAsync(b, delay, TimeUnit.MILLISECONDS).toCompletableFuture());
            }
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        }
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = ConsumerThreads.start("redisson-delayed", count, owner -> {
            String one = destination.poll(1, TimeUnit.SECONDS);
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
        return (long) delayed.size() + destination.size();
    }

    @Override
    public void close() {
        stopConsumers();
        delayed.destroy();
        redisson.shutdown();
    }
}
