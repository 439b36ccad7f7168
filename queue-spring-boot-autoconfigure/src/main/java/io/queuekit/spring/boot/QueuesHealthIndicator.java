package io.queuekit.spring.boot;

import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import redis.clients.jedis.UnifiedJedis;

/**
 * The {@code queuekit} health: DOWN when Redis does not answer a PING within the client's timeout;
 * otherwise each queue's ready, in-flight, delayed and dead counts, and DOWN when a queue holds more
 * dead letters than {@code queuekit.health.dead-letter-threshold} (unset: dead letters alone never
 * make it DOWN). With {@code queuekit.transport=in-memory} there is no Redis to ask.
 */
public final class QueuesHealthIndicator extends AbstractHealthIndicator {
    private final QueueCatalog catalog;
    private final UnifiedJedis redis;
    private final Long deadLetterThreshold;

    QueuesHealthIndicator(QueueCatalog catalog, UnifiedJedis redis, Long deadLetterThreshold) {
        super("queuekit health check failed");
        this.catalog = catalog;
        this.redis = redis;
        this.deadLetterThreshold = deadLetterThreshold;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
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
                                stats.dead()));
                tooManyDead |= deadLetterThreshold != null && stats.dead() > deadLetterThreshold;
            }
        }
        builder.withDetail("queues", queues);
        if (deadLetterThreshold != null) {
            builder.withDetail("deadLetterThreshold", deadLetterThreshold);
        }
        if (tooManyDead) {
            builder.down();
        } else {
            builder.up();
        }
    }
}
