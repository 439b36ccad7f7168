package io.queuekit.spring.boot;

import io.queuekit.GroupInfo;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import redis.clients.jedis.UnifiedJedis;

/**
 * The {@code queuekit} health: DOWN when Redis does not answer a PING within the client's timeout;
 * otherwise each queue's ready, in-flight, delayed and dead counts, each stream's groups with their
 * lag, pending, dead and missed counts, and DOWN when a queue or a stream's group holds more dead
 * letters than {@code queuekit.health.dead-letter-threshold} (unset: dead letters alone never make
 * it DOWN). Each {@link BroadcastListener}'s subscription state and last gap are shown, and
 * make it DOWN only once one has been without its subscription longer than
 * {@code queuekit.health.broadcast-down-after} (unset: never). With
 * {@code queuekit.transport=in-memory} there is no Redis to ask.
 */
public final class QueuesHealthIndicator extends AbstractHealthIndicator {
    private final QueueCatalog catalog;
    private final UnifiedJedis redis;
    private final Long deadLetterThreshold;
    private final BroadcastSubscriptions broadcasts;
    private final Duration broadcastDownAfter;

    QueuesHealthIndicator(
            QueueCatalog catalog,
            UnifiedJedis redis,
            QueuekitProperties.Health settings,
            BroadcastSubscriptions broadcasts) {
        super("queuekit health check failed");
        this.catalog = catalog;
        this.redis = redis;
        this.deadLetterThreshold = settings.getDeadLetterThreshold();
        this.broadcastDownAfter = settings.getBroadcastDownAfter();
        if (broadcastDownAfter != null && broadcastDownAfter.isNegative()) {
            throw new QueueConfigurationException(
                    "queuekit.health.broadcast-down-after=" + broadcastDownAfter
                            + " is refused: it must not be negative",
                    "Set queuekit.health.broadcast-down-after to a duration such as 5m, or remove it.");
        }
        this.broadcasts = broadcasts;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        // first: still shown when the PING below fails
        Map<String, Object> listeners = broadcasts.details();
        if (!listeners.isEmpty()) {
            builder.withDetail("broadcastListeners", listeners);
        }
        if (redis != null) {
            builder.withDetail("redis", redis.ping());
        }
        boolean tooManyDead = false;
        Map<String, Object> queues = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : catalog.all().entrySet()) {
            if (e.getValue() instanceof MessageQueue<?> queue) {
                QueueStats stats = queue.stats();
                queues.put(
                        e.getKey(),
                        Map.of(
                                "ready",
                                stats.ready(),
                                "inFlight",
                                stats.inFlight(),
                                "delayed",
                                stats.delayed(),
                                "dead",
                                stats.dead(),
                                "paused",
                                stats.paused()));
                tooManyDead |= deadLetterThreshold != null && stats.dead() > deadLetterThreshold;
            } else if (e.getValue() instanceof Topic<?> topic) {
                Map<String, Object> groups = new LinkedHashMap<>();
                for (GroupInfo group : topic.groups()) {
                    groups.put(
                            group.name(),
                            Map.of(
                                    "lag",
                                    group.lag(),
                                    "pending",
                                    group.pending(),
                                    "dead",
                                    group.dead(),
                                    "missed",
                                    group.missed()));
                    tooManyDead |= deadLetterThreshold != null && group.dead() > deadLetterThreshold;
                }
                queues.put(e.getKey(), Map.of("groups", groups));
            }
        }
        builder.withDetail("queues", queues);
        if (deadLetterThreshold != null) {
            builder.withDetail("deadLetterThreshold", deadLetterThreshold);
        }
        boolean broadcastsDown =
                broadcastDownAfter != null && broadcasts.anyDownLongerThan(broadcastDownAfter, Instant.now());
        if (broadcastDownAfter != null) {
            builder.withDetail("broadcastDownAfter", broadcastDownAfter.toString());
        }
        if (tooManyDead || broadcastsDown) {
            builder.down();
        } else {
            builder.up();
        }
    }
}
