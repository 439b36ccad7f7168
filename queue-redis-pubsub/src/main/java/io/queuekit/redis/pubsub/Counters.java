package io.queuekit.redis.pubsub;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counts a subscription reports. Each subscription has its own and adds to its broadcaster's
 * as well, so the broadcaster's totals include subscriptions that have since been closed.
 */
final class Counters {
    private final Counters parent;
    private final LongAdder reconnects = new LongAdder();
    private final LongAdder listenerFailures = new LongAdder();
    private final LongAdder decodeFailures = new LongAdder();

    Counters(Counters parent) {
        this.parent = parent;
    }

    void reconnected() {
        reconnects.increment();
        if (parent != null) {
            parent.reconnected();
        }
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

    long reconnects() {
        return reconnects.sum();
    }

    long listenerFailures() {
        return listenerFailures.sum();
    }

    long decodeFailures() {
        return decodeFailures.sum();
    }
}
