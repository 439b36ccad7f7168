package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Consumer threads for the peers, which have no managed consumers of their own: each thread runs
 * one fetch after another until stopped. A fetch that fails is counted and reported once; the
 * thread carries on after a short pause, as a hand-written consumer loop would.
 */
final class ConsumerThreads {

    /** One fetch: wait a bounded time for messages and hand them on. */
    @FunctionalInterface
    interface Fetch {
        void once(ConsumerThreads owner) throws Exception;
    }

    private final String name;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running = true;

    private ConsumerThreads(String name) {
        this.name = name;
    }

    /** Starts {@code count} daemon threads named {@code bench-<name>-consumer-<n>}. */
    static ConsumerThreads start(String name, int count, Fetch fetch) {
        ConsumerThreads c = new ConsumerThreads(name);
        for (int i = 1; i <= count; i++) {
            Thread t = new Thread(() -> c.loop(fetch), "bench-" + name + "-consumer-" + i);
            t.setDaemon(true);
            c.threads.add(t);
        }
        c.threads.forEach(Thread::start);
        return c;
    }

    private void loop(Fetch fetch) {
        while (running) {
            try {
                fetch.once(this);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                if (failures.getAndIncrement() == 0) {
                    System.err.println("bench " + name + ": consumer fetch failed: " + e);
                }
                pause(100);
            }
        }
    }

    boolean running() {
        return running;
    }

    /** Sleeps up to {@code millis}, waking early when stopped; false if stopped. */
    boolean pause(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (running) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Stops the threads: waits for the fetch in progress (bounded), then interrupts stragglers. */
    void stop() {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                t.interrupt();
            }
        }
    }
}
