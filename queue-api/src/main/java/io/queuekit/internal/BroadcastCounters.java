package io.queuekit.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a broadcast subscription's listener thread counts. Each subscription has its own, made by
 * {@link #child()} from its broadcaster's, and adds to that one as well, so the broadcaster's
 * totals include subscriptions that have since been closed. Thread-safe.
 */
public final class BroadcastCounters {
    private final BroadcastCounters parent;
    private final LongAdder listenerFailures = new LongAdder();
    private final LongAdder decodeFailures = new LongAdder();

    /** A broadcaster's totals. */
    public BroadcastCounters() {
        this(null);
    }

    private BroadcastCounters(BroadcastCounters parent) {
        this.parent = parent;
    }

    /** A subscription's counts, added to these too. */
    public BroadcastCounters child() {
        return new BroadcastCounters(this);
    }

    void listenerFailed() {
        listenerFailures.increment();
        if (parent != null) {
            parent.listenerFailed();
        }
    }

    void decodeFailed() {
        decodeFailures.increment();
        if (parent != null) {
            parent.decodeFailed();
        }
    }

    /** Messages on which the listener threw. */
    public long listenerFailures() {
        return listenerFailures.sum();
    }

    /** Messages skipped because they could not be decoded. */
    public long decodeFailures() {
        return decodeFailures.sum();
    }
}
