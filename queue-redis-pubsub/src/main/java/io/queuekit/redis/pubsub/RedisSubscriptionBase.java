package io.queuekit.redis.pubsub;

import io.queuekit.Subscription;
import java.time.Instant;

/**
 * The methods of {@link RedisBroadcaster.RedisSubscription}: the type users name is nested in the
 * broadcaster, its body lives here. The one subclass is that type.
 */
abstract sealed class RedisSubscriptionBase implements Subscription permits RedisBroadcaster.RedisSubscription {
    private final Subscriber<?> subscriber;

    RedisSubscriptionBase(Subscriber<?> subscriber) {
        this.subscriber = subscriber;
    }

    /** The name of the listener's thread, {@code queuekit-<channel>-subscriber-<n>}. */
    public String name() {
        return subscriber.name();
    }

    /** The channel name, or the pattern of a pattern subscription. */
    public String channel() {
        return subscriber.channel();
    }

    /** Whether this is a pattern subscription. */
    public boolean isPattern() {
        return subscriber.isPattern();
    }

    /** {@code true} until {@link #close()} ran or the broadcaster was closed; stays {@code true}
     *  while reconnecting. */
    @Override
    public boolean isActive() {
        return subscriber.isActive();
    }

    /** Whether Redis has confirmed the subscription on the current connection (false while
     *  reconnecting and after close). */
    public boolean isConnected() {
        return subscriber.isConnected();
    }

    /**
     * When this subscription noticed that it lost its connection (by the builder's clock), while it
     * subscribes again; null while it is connected and after {@link #close()}. Every message
     * published since then is missed, and reported as a gap once it is back.
     */
    public Instant disconnectedSince() {
        return subscriber.isActive() ? subscriber.reader.lostSince : null;
    }

    /** How many times this subscription subscribed again after losing its connection, each time
     *  a gap in what it received. */
    public long reconnects() {
        return subscriber.reconnects.count();
    }

    /** Messages on which the listener threw. */
    public long listenerFailures() {
        return subscriber.dispatch.counters().listenerFailures();
    }

    /** Messages skipped because the codec could not decode them. */
    public long decodeFailures() {
        return subscriber.dispatch.counters().decodeFailures();
    }

    /** Bytes received and not yet handed to the listener; for tests. */
    long bufferedBytes() {
        return subscriber.dispatch.heldBytes();
    }

    @Override
    public void close() {
        subscriber.close();
    }

    @Override
    public String toString() {
        return "RedisSubscription[" + name() + (isActive() ? "" : ", closed") + "]";
    }
}
