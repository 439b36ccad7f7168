package io.queuekit.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts every receipt by message index and receiver, and records each receipt's latency against
 * the message's reference time: when it was sent ({@link #sent}, {@code System.nanoTime}) for
 * queues, or when it was due ({@link #due}, wall-clock micros) for delays, where a negative latency
 * is an early delivery; the latency of a message counts once per receiver, at its first receipt.
 * Thread-safe, and cheap enough not to slow down an in-memory queue: receivers call
 * {@link #received} from any thread without contending on shared counters.
 */
final class Tracker {
    private final int messages;
    private final int receivers;
    private final boolean wallClock;
    private final AtomicLongArray reference;
    private final AtomicIntegerArray counts;
    private final long[] latencies;
    private final LongAdder receipts = new LongAdder();
    private final LongAdder distinct = new LongAdder();
    private final LongAccumulator lastNanos = new LongAccumulator(Math::max, 0);
    private final LongAdder early = new LongAdder();

    /** @param wallClock true when reference times are due times in wall-clock micros */
    Tracker(int messages, int receivers, boolean wallClock) {
        this.messages = messages;
        this.receivers = receivers;
        this.wallClock = wallClock;
        this.reference = new AtomicLongArray(messages);
        this.counts = new AtomicIntegerArray(messages * receivers);
        this.latencies = new long[messages * receivers];
    }

    /** Message {@code index} is being sent now. */
    void sent(int index) {
        reference.setRelease(index, System.nanoTime());
    }

    /** Message {@code index} is due at {@code dueMicros} (wall clock). */
    void due(int index, long dueMicros) {
        reference.setRelease(index, dueMicros);
    }

    /** A receipt by the only receiver. */
    void received(String body) {
        received(0, body);
    }

    void received(int receiver, String body) {
        long nanos = System.nanoTime();
        int index = Body.index(body);
        if (index < 0 || index >= messages) {
            throw new IllegalStateException("receipt of unknown message " + index + " (of " + messages + ")");
        }
        long latency = wallClock
                ? (Body.nowMicros() - reference.getAcquire(index)) * 1_000
                : nanos - reference.getAcquire(index);
        int slot = receiver * messages + index;
        if (counts.getAndIncrement(slot) == 0) {
            latencies[slot] = latency;
            distinct.increment();
        }
        receipts.increment();
        if (latency < 0) {
            early.increment();
        }
        lastNanos.accumulate(nanos);
    }

    /** Receipts expected when every message reaches every receiver once. */
    int expected() {
        return messages * receivers;
    }

    /** Distinct (message, receiver) pairs seen so far. */
    long distinct() {
        return distinct.sum();
    }

    long receipts() {
        return receipts.sum();
    }

    boolean complete() {
        return distinct.sum() >= expected();
    }

    /** {@code System.nanoTime()} of the latest receipt, 0 if none. */
    long lastNanos() {
        return lastNanos.get();
    }

    long early() {
        return early.sum();
    }

    /**
     * Waits until every message reached every receiver, or nothing arrived for {@code idleMillis},
     * or the deadline ({@code System.nanoTime()}) passed.
     *
     * @return true if complete
     */
    boolean await(long deadlineNanos, long idleMillis) throws InterruptedException {
        long seen = -1;
        long lastProgress = System.nanoTime();
        while (!complete()) {
            long now = System.nanoTime();
            long n = receipts();
            if (n != seen) {
                seen = n;
                lastProgress = now;
            } else if (now - lastProgress > TimeUnit.MILLISECONDS.toNanos(idleMillis)) {
                return false;
            }
            if (now - deadlineNanos > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** Receipts of a message beyond the first, summed over messages and receivers. */
    long dupes() {
        long d = 0;
        for (int i = 0; i < counts.length(); i++) {
            int c = counts.get(i);
            if (c > 1) {
                d += c - 1;
            }
        }
        return d;
    }

    /** (message, receiver) pairs never received. */
    long lost() {
        long l = 0;
        for (int i = 0; i < counts.length(); i++) {
            if (counts.get(i) == 0) {
                l++;
            }
        }
        return l;
    }

    /**
     * Latency percentiles in milliseconds: p50, p99, max; zeros if nothing was received. Call once
     * the receivers have stopped (their threads joined), which publishes their writes.
     */
    double[] percentilesMillis() {
        long[] sorted = new long[(int) Math.min(Integer.MAX_VALUE, distinct())];
        int n = 0;
        for (int i = 0; i < latencies.length && n < sorted.length; i++) {
            if (counts.get(i) > 0) {
                sorted[n++] = latencies[i];
            }
        }
        if (n == 0) {
            return new double[] {0, 0, 0};
        }
        Arrays.sort(sorted, 0, n);
        return new double[] {sorted[rank(n, 0.50)] / 1e6, sorted[rank(n, 0.99)] / 1e6, sorted[n - 1] / 1e6};
    }

    private static int rank(int n, double q) {
        return Math.min(n - 1, Math.max(0, (int) Math.ceil(q * n) - 1));
    }
}
