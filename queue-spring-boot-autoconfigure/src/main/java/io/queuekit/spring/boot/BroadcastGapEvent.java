package io.queuekit.spring.boot;

import io.queuekit.redis.pubsub.RedisBroadcaster;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A subscription to a broadcast declared under {@code queuekit.queues} lost its Redis connection
 * and is back: the messages published between {@link #lostAt()} and {@link #resumedAt()} did not
 * reach it. Published as a Spring application event, on the subscription's listener thread between
 * the messages before and after the gap, for every subscription of the broadcasts the starter
 * builds ({@link BroadcastListener} methods and the application's own {@code subscribe} calls);
 * receive it with an {@code @EventListener} method. See {@code docs/spring-boot.md}.
 *
 * @param broadcast the broadcast's name under {@code queuekit.queues}
 * @param subscription the subscription's name, {@code queuekit-<channel>-subscriber-<n>}
 * @param channel the channel name, or the pattern of a pattern subscription
 * @param lostAt when the subscription noticed that its connection was lost
 * @param resumedAt when Redis confirmed the new subscription
 * @param cause the failure that ended the old connection
 */
public record BroadcastGapEvent(
        String broadcast, String subscription, String channel, Instant lostAt, Instant resumedAt, Throwable cause) {

    /** Checks that no argument is null. */
    public BroadcastGapEvent {
        Objects.requireNonNull(broadcast, "broadcast");
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(lostAt, "lostAt");
        Objects.requireNonNull(resumedAt, "resumedAt");
        Objects.requireNonNull(cause, "cause");
    }

    /** How long the subscription was without a connection. */
    public Duration duration() {
        return Duration.between(lostAt, resumedAt);
    }

    static BroadcastGapEvent of(String broadcast, RedisBroadcaster.GapEvent gap) {
        return new BroadcastGapEvent(
                broadcast, gap.subscription(), gap.channel(), gap.lostAt(), gap.resumedAt(), gap.cause());
    }
}
