package io.queuekit.spring.boot;

import io.queuekit.Subscription;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The subscriptions of the {@link BroadcastListener} methods, for the health indicator: each one's
 * state and last gap. It also turns the gaps of the broadcasts the starter builds into
 * {@link BroadcastGapEvent}s.
 */
final class BroadcastSubscriptions {
    static final String SUBSCRIBED = "subscribed";
    static final String RECONNECTING = "reconnecting";
    static final String SUBSCRIBING = "subscribing";
    static final String STOPPED = "stopped";

    private final ApplicationEventPublisher events;
    private final CopyOnWriteArrayList<Tracked> running = new CopyOnWriteArrayList<>();

    BroadcastSubscriptions(ApplicationEventPublisher events) {
        this.events = events;
    }

    /** The {@code onGap} of the broadcast {@code broadcast}: notes the gap and publishes it as an event. */
    Consumer<RedisBroadcaster.GapEvent> onGap(String broadcast) {
        return gap -> {
            BroadcastGapEvent event = BroadcastGapEvent.of(broadcast, gap);
            for (Tracked t : running) {
                if (t.current() instanceof RedisSubscription s && s.name().equals(gap.subscription())) {
                    t.lastGap = event;
                }
            }
            events.publishEvent(event);
        };
    }

    /** Subscribes {@code listener}, keeping on trying while Redis cannot be reached; tracked until closed. */
    Subscription subscribe(ListenerMethod listener, Supplier<Subscription> subscribe) {
        Tracked t = new Tracked(listener, RetryingSubscription.subscribe(listener.queue(), subscribe));
        running.removeIf(earlier -> earlier.listener.id().equals(listener.id())); // stopped, then started again
        running.add(t);
        return t;
    }

    /**
     * Each listener's state, under {@code <bean>#<method>}: {@code subscribed}, {@code reconnecting}
     * (lost its connection), {@code subscribing} (never subscribed yet) or {@code stopped}; since
     * when for the two in between; its reconnects and last gap on Redis.
     */
    Map<String, Object> details() {
        Map<String, Object> all = new LinkedHashMap<>();
        for (Tracked t : running) {
            all.put(t.listener.beanName() + "#" + t.listener.method().getName(), t.details());
        }
        return all;
    }

    /** Whether a listener has been reconnecting or subscribing since before {@code now - limit}. */
    boolean anyDownLongerThan(Duration limit, Instant now) {
        for (Tracked t : running) {
            Instant since = t.downSince();
            if (since != null && since.plus(limit).isBefore(now)) {
                return true;
            }
        }
        return false;
    }

    private final class Tracked implements Subscription {
        final ListenerMethod listener;
        final Subscription subscription;
        volatile BroadcastGapEvent lastGap;

        Tracked(ListenerMethod listener, Subscription subscription) {
            this.listener = listener;
            this.subscription = subscription;
        }

        /** The subscription made, null while a {@link RetryingSubscription} is still trying. */
        Subscription current() {
            return subscription instanceof RetryingSubscription r ? r.current() : subscription;
        }

        Instant downSince() {
            Subscription s = current();
            if (s == null) {
                return subscription.isActive() && subscription instanceof RetryingSubscription r ? r.since() : null;
            }
            return s instanceof RedisSubscription r ? r.disconnectedSince() : null;
        }

        String state(Subscription s) {
            if (!subscription.isActive()) {
                return STOPPED;
            }
            if (s == null) {
                return SUBSCRIBING;
            }
            return s instanceof RedisSubscription r && !r.isConnected() ? RECONNECTING : SUBSCRIBED;
        }

        Map<String, Object> details() {
            Subscription s = current();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("broadcast", listener.queue());
            d.put("state", state(s));
            Instant since = downSince();
            if (since != null) {
                d.put("since", since.toString());
            }
            if (s instanceof RedisSubscription r) {
                d.put("subscription", r.name());
                d.put("reconnects", r.reconnects());
            }
            BroadcastGapEvent gap = lastGap;
            if (gap != null) {
                d.put(
                        "lastGap",
                        Map.of(
                                "lostAt", gap.lostAt().toString(),
                                "resumedAt", gap.resumedAt().toString(),
                                "duration", gap.duration().toString(),
                                "cause", gap.cause().toString()));
            }
            return d;
        }

        @Override
        public boolean isActive() {
            return subscription.isActive();
        }

        @Override
        public void close() {
            running.remove(this);
            subscription.close();
        }
    }
}
