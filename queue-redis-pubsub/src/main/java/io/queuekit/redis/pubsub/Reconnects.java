package io.queuekit.redis.pubsub;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many times subscriptions subscribed again after losing their connection. Each subscription
 * counts its own and adds to its broadcaster's, so the broadcaster's total includes subscriptions
 * that have since been closed.
 */
final class Reconnects {
    private final Reconnects parent;
    private final LongAdder count = new LongAdder();

    Reconnects(Reconnects parent) {
        this.parent = parent;
    }

    void add() {
        count.increment();
        if (parent != null) {
            parent.add();
        }
    }

    long count() {
        return count.sum();
    }
}
