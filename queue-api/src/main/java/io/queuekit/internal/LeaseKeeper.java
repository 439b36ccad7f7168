package io.queuekit.internal;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import java.time.Duration;
import java.util.Objects;

/**
 * Keeps the lease of a delivery that a managed consumer holds from lapsing, from its fetch until
 * it is settled, for at most {@link ConsumeOptions#leaseRenewalLimit()}: so a handler that runs
 * longer than the visibility timeout does not see its message handed to a second consumer, while
 * one that hangs cannot hold it for good: once the limit has passed, the lease lapses within one
 * visibility timeout. {@link Workers} holds every delivery it fetches; a
 * transport chooses how holding works. Implementations are thread-safe.
 */
public interface LeaseKeeper extends AutoCloseable {

    /**
     * Starts keeping {@code delivery}'s lease for at most {@code limit} from now.
     *
     * @return the hold; release it once the delivery is settled
     */
    Hold hold(Delivery<?> delivery, Duration limit);

    /** Stops keeping every lease; later holds keep nothing. */
    @Override
    default void close() {}

    /** One delivery's lease being kept. */
    @FunctionalInterface
    interface Hold {
        /** Stops keeping the lease; idempotent. */
        void release();
    }

    /** Keeps nothing: for transports without leases (at-most-once). */
    static LeaseKeeper none() {
        return (delivery, limit) -> () -> {};
    }

    /**
     * Renews each held delivery with {@link Delivery#extendLease(Duration) extendLease(lease)} once a
     * third of {@code lease} has passed since its fetch or last renewal (so with at least half of
     * it left), on one daemon thread named {@code threadName}, until it is released, it is no
     * longer owned, or the limit has passed (the lease then lapses within one {@code lease}). A
     * handler quicker than a third of the lease costs no renewal. For transports whose leases run
     * on real time (Redis).
     */
    static LeaseKeeper renewing(String threadName, Duration lease) {
        return new LeaseRenewer(Objects.requireNonNull(threadName, "threadName"), Checks.positive(lease, "lease"));
    }
}
