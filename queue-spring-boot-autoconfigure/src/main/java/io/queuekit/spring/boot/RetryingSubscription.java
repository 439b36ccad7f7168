package io.queuekit.spring.boot;

import io.queuekit.Subscription;
import io.queuekit.TransportException;
import io.queuekit.internal.RateLimitedLog;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BroadcastListener}'s subscription, or a stream group listener's consumer, made while
 * Redis cannot be reached: start-up goes on, and a thread of its own keeps subscribing (with a
 * backoff from 100 ms to 5 s) until it works, as queue listeners keep fetching. Messages published
 * before a subscription works are not seen, as with any subscriber that was not yet listening; a
 * group keeps its messages for the consumer that comes.
 */
final class RetryingSubscription implements Subscription {
    private static final Logger LOG = LoggerFactory.getLogger(RetryingSubscription.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(5);

    private final String channel;
    /** What is subscribed, for the log: "the broadcast listener". */
    private final String what;

    private final Supplier<Subscription> subscribe;
    private final RateLimitedLog failures = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private final Thread thread;
    private final Instant since = Instant.now();
    private final Object lock = new Object();
    // guarded by lock
    private Subscription subscribed;
    private boolean closed;

    /** Subscribes a broadcast listener now, or, if Redis cannot be reached, returns a subscription that keeps trying. */
    static Subscription subscribe(String channel, Supplier<Subscription> subscribe) {
        return subscribe(channel, "the broadcast listener", subscribe);
    }

    /**
     * Subscribes now, or, if Redis cannot be reached, returns a subscription that keeps trying.
     *
     * @param what what is subscribed, for the log
     */
    static Subscription subscribe(String channel, String what, Supplier<Subscription> subscribe) {
        try {
            return subscribe.get();
        } catch (TransportException e) {
            return new RetryingSubscription(channel, what, subscribe, e);
        }
    }

    private RetryingSubscription(
            String channel, String what, Supplier<Subscription> subscribe, TransportException first) {
        this.channel = channel;
        this.what = what;
        this.subscribe = subscribe;
        failures.failed(
                "queuekit " + channel + ": could not subscribe " + what + "; start-up goes on and it keeps trying",
                first);
        thread = new Thread(this::run, "queuekit-" + channel + "-subscribe");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (true) {
            synchronized (lock) {
                if (closed) {
                    return;
                }
            }
            try {
                Thread.sleep(backoff.toMillis());
            } catch (InterruptedException e) {
                continue; // close() interrupts: the loop sees closed
            }
            Subscription s;
            try {
                s = subscribe.get();
            } catch (TransportException e) {
                failures.failed("queuekit " + channel + ": subscribing failed, retrying", e);
                backoff = backoff.multipliedBy(2).compareTo(LONGEST_BACKOFF) > 0
                        ? LONGEST_BACKOFF
                        : backoff.multipliedBy(2);
                continue;
            } catch (RuntimeException e) { // closed broadcaster, or a failure no retry mends
                synchronized (lock) {
                    if (!closed) {
                        LOG.warn("queuekit {}: gave up subscribing {}", channel, what, e);
                    }
                }
                return;
            }
            synchronized (lock) {
                if (!closed) {
                    subscribed = s;
                    failures.recovered("queuekit {}: subscribing works again", channel);
                    return;
                }
            }
            s.close(); // closed while subscribing
            return;
        }
    }

    /** When the first attempt failed. */
    Instant since() {
        return since;
    }

    /** The subscription once made; null while it keeps trying. */
    Subscription current() {
        synchronized (lock) {
            return subscribed;
        }
    }

    @Override
    public boolean isActive() {
        synchronized (lock) {
            return subscribed != null ? subscribed.isActive() : !closed;
        }
    }

    @Override
    public void close() {
        Subscription s;
        synchronized (lock) {
            closed = true;
            s = subscribed;
        }
        thread.interrupt();
        if (s != null) {
            s.close();
        }
    }
}
