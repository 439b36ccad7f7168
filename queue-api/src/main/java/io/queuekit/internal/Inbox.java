package io.queuekit.internal;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * What a broadcast subscription holds for its listener, first in, first out, bounded both by how
 * many items and by how many bytes. An item counts from its {@link #offer} until the listener's
 * thread {@linkplain #release releases} it as it hands it to the listener: items taken out in a
 * batch count until then, so the bound is what the subscription holds, not what is left queued.
 * An item larger than the byte bound is still taken when nothing else is held, so the bound is
 * never a dead end: the subscription holds at most {@code max(maxBytes, one item)}. Thread-safe.
 *
 * @param <E> the item type
 */
public final class Inbox<E> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final ArrayDeque<E> queued = new ArrayDeque<>();
    private final ToLongFunction<? super E> sizeOf;
    private final int maxItems;
    private final long maxBytes;
    // guarded by lock: queued items and those taken out but not yet released
    private int heldItems;
    private long heldBytes;
    private boolean closed;

    /**
     * @param maxItems how many items it holds at most
     * @param maxBytes how many bytes, as {@code sizeOf} measures them, it holds at most
     */
    public Inbox(int maxItems, long maxBytes, ToLongFunction<? super E> sizeOf) {
        this.maxItems = Checks.inRange(maxItems, 1, Integer.MAX_VALUE, "maxItems");
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.sizeOf = sizeOf;
    }

    /** Adds {@code item} if there is room now; false if there is none, or once closed. */
    public boolean offer(E item) {
        long size = sizeOf.applyAsLong(item);
        lock.lock();
        try {
            if (closed || !fits(size)) {
                return false;
            }
            add(item, size);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Adds {@code item}, waiting at most {@code timeout} for room; false if none came, or once closed. */
    public boolean offer(E item, long timeout, TimeUnit unit) throws InterruptedException {
        long size = sizeOf.applyAsLong(item);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!closed && !fits(size)) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = notFull.awaitNanos(nanos);
            }
            if (closed) {
                return false;
            }
            add(item, size);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves up to {@code max} of the oldest items into {@code into}, waiting for one; they are
     * still held until {@linkplain #release released}. Returns how many, 0 once closed.
     */
    public int drainTo(Collection<? super E> into, int max) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (queued.isEmpty() && !closed) {
                notEmpty.await();
            }
            int n = 0;
            while (n < max && !queued.isEmpty()) {
                into.add(queued.poll());
                n++;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** An item taken out by {@link #drainTo} is no longer held: it was handed on, or dropped. */
    public void release(E item) {
        long size = sizeOf.applyAsLong(item);
        lock.lock();
        try {
            if (closed) {
                return; // close() let go of everything
            }
            heldItems--;
            heldBytes -= size;
            notFull.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Drops everything held, wakes every waiting thread, and refuses items from now on. Idempotent. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            queued.clear();
            heldItems = 0;
            heldBytes = 0;
            notEmpty.signalAll();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The total size of the items held, those taken out and not yet released included. */
    public long bytes() {
        lock.lock();
        try {
            return heldBytes;
        } finally {
            lock.unlock();
        }
    }

    /** How many items are held, those taken out and not yet released included. */
    public int size() {
        lock.lock();
        try {
            return heldItems;
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(long size) {
        return heldItems == 0 || (heldItems < maxItems && heldBytes + size <= maxBytes);
    }

    private void add(E item, long size) {
        queued.add(item);
        heldItems++;
        heldBytes += size;
        notEmpty.signal();
    }
}
