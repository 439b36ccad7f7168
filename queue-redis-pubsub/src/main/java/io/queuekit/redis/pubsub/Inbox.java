package io.queuekit.redis.pubsub;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The buffer between a subscription's reading thread and its listener: first in, first out,
 * bounded both by how many items it holds and by their size in bytes. An item larger than the
 * byte bound is still taken when the buffer is empty, so the bound is never a dead end: the buffer
 * holds at most {@code max(maxBytes, one item)}.
 *
 * @param <E> the item type
 */
final class Inbox<E> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final ArrayDeque<E> items = new ArrayDeque<>();
    private final ToLongFunction<? super E> sizeOf;
    private final int maxItems;
    private final long maxBytes;
    private long bytes; // guarded by lock

    Inbox(int maxItems, long maxBytes, ToLongFunction<? super E> sizeOf) {
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.sizeOf = sizeOf;
    }

    /** Adds {@code item} if it fits now. */
    boolean offer(E item) {
        long size = sizeOf.applyAsLong(item);
        lock.lock();
        try {
            if (!fits(size)) {
                return false;
            }
            add(item, size);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Adds {@code item}, waiting at most {@code timeout} for room. */
    boolean offer(E item, long timeout, TimeUnit unit) throws InterruptedException {
        long size = sizeOf.applyAsLong(item);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!fits(size)) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = notFull.awaitNanos(nanos);
            }
            add(item, size);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Removes the oldest item, waiting for one. */
    E take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (items.isEmpty()) {
                notEmpty.await();
            }
            E item = items.poll();
            bytes -= sizeOf.applyAsLong(item);
            notFull.signal();
            return item;
        } finally {
            lock.unlock();
        }
    }

    /** Moves up to {@code max} of the oldest items into {@code into}; returns how many. */
    int drainTo(Collection<? super E> into, int max) {
        lock.lock();
        try {
            int n = 0;
            while (n < max && !items.isEmpty()) {
                E item = items.poll();
                bytes -= sizeOf.applyAsLong(item);
                into.add(item);
                n++;
            }
            if (n > 0) {
                notFull.signal();
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            items.clear();
            bytes = 0;
            notFull.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The total size of the items held. */
    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(long size) {
        return items.isEmpty() || (items.size() < maxItems && bytes + size <= maxBytes);
    }

    private void add(E item, long size) {
        items.add(item);
        bytes += size;
        notEmpty.signal();
    }
}
