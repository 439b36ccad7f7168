package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code queues} Actuator endpoint: what the {@code queuekit} command line offers, over HTTP or
 * JMX. Reads ({@code GET /actuator/queues}, {@code /actuator/queues/{name}},
 * {@code /actuator/queues/{name}/peek?limit=}, {@code /actuator/queues/{name}/dead-letters?limit=}) are
 * open once the endpoint is exposed; the writes, {@code POST /actuator/queues/{name}/requeue} and
 * {@code /purge} of dead letters with {@code {"id": "..."}} for one or {@code {"all": true}} for all,
 * need {@code management.endpoint.queues.access=unrestricted}.
 */
@Endpoint(id = "queues", defaultAccess = Access.READ_ONLY)
public final class QueuesEndpoint {
    /** The most messages one read returns. */
    static final int MAX_LIMIT = 1000;

    private static final int DEFAULT_LIMIT = 20;

    private final QueueCatalog catalog;

    QueuesEndpoint(QueueCatalog catalog) {
        this.catalog = catalog;
    }

    /** One queue or broadcast channel as the endpoint shows it. */
    public record QueueView(
            String name,
            String type,
            String transport,
            @Nullable QueueStats stats) {}

    /** A message waiting in a queue, with the field names of the command line's {@code peek}. */
    public record WaitingView(
            String id,
            int attempt,
            Instant sentAt,
            @Nullable Instant dueAt,
            Object payload) {}

    /** A dead letter. */
    public record DeadLetterView(String id, int attempts, String reason, Instant deadAt, Object payload) {}

    /** Every queue with its counts. */
    @ReadOperation
    public Map<String, QueueView> queues() {
        Map<String, QueueView> all = new LinkedHashMap<>();
        catalog.all().keySet().forEach(name -> all.put(name, queue(name)));
        return all;
    }

    /** One queue with its counts. */
    @ReadOperation
    public @Nullable QueueView queue(@Selector String name) {
        QueueDefinitions.Definition definition = catalog.definition(name);
        if (definition == null) {
            return null;
        }
        String type = QueueDefinitions.lower(definition.type());
        if (definition.type() == QueuekitProperties.Type.BROADCAST) {
            Broadcaster<?> broadcaster = catalog.broadcaster(name);
            return new QueueView(name, type, broadcaster.semantics().transport(), null);
        }
        MessageQueue<?> queue = catalog.queue(name);
        return new QueueView(name, type, queue.semantics().transport(), queue.stats());
    }

    /**
     * {@code peek}: the next messages to be delivered (Redis queues only); {@code dead-letters}: the
     * dead letters, newest first.
     */
    @ReadOperation
    public @Nullable List<?> messages(@Selector String name, @Selector String part, @Nullable Integer limit) {
        MessageQueue<?> queue = catalog.queue(name);
        if (queue == null) {
            return null;
        }
        int n = limit(limit);
        return switch (part) {
            case "peek" ->
                peek(queue, n).stream()
                        .map(m -> new WaitingView(m.id().value(), m.attempt(), m.enqueuedAt(), m.dueAt(), m.payload()))
                        .toList();
            case "dead-letters" ->
                queue.deadLetters().list(n).stream().map(QueuesEndpoint::view).toList();
            default ->
                throw new InvalidEndpointRequestException(
                        "no part '" + part + "': use peek or dead-letters", "Unknown part '" + part + "'");
        };
    }

    private static List<? extends WaitingMessage<?>> peek(MessageQueue<?> queue, int n) {
        if (queue instanceof RedisListQueue<?> list) {
            return list.peek(n);
        }
        if (queue instanceof RedisDelayQueue<?> delay) {
            return delay.peek(n);
        }
        throw new InvalidEndpointRequestException(
                queue.name() + " is an in-memory queue, which cannot be peeked", "Peek needs a Redis queue");
    }

    private static DeadLetterView view(DeadLetter<?> d) {
        return new DeadLetterView(d.id().value(), d.attempts(), d.reason(), d.deadAt(), d.payload());
    }

    /**
     * {@code requeue} moves dead letters back to be delivered again, {@code purge} deletes them: the
     * one named by {@code id}, or all of them with {@code all=true}. Returns how many it changed.
     */
    @WriteOperation
    public @Nullable Map<String, Object> deadLetters(
            @Selector String name, @Selector String action, @Nullable String id, @Nullable Boolean all) {
        MessageQueue<?> queue = catalog.queue(name);
        if (queue == null) {
            return null;
        }
        if (!action.equals("requeue") && !action.equals("purge")) {
            throw new InvalidEndpointRequestException(
                    "no action '" + action + "': use requeue or purge", "Unknown action '" + action + "'");
        }
        if ((id == null) == !Boolean.TRUE.equals(all)) {
            throw new InvalidEndpointRequestException(
                    action + " needs either \"id\" (one dead letter) or "
                            + "\"all\": true (every one), not both or neither",
                    "Say which dead letters");
        }
        DeadLetters<?> dead = queue.deadLetters();
        long changed;
        if (id != null) {
            MessageId messageId;
            try {
                messageId = MessageId.of(id);
            } catch (IllegalArgumentException e) {
                throw new InvalidEndpointRequestException(e.getMessage(), "Invalid id");
            }
            changed = (action.equals("requeue") ? dead.requeue(messageId) : dead.purge(messageId)) ? 1 : 0;
        } else {
            changed = action.equals("requeue") ? dead.requeueAll() : dead.purge();
        }
        return Map.of("queue", name, "action", action, "changed", changed);
    }

    private static int limit(@Nullable Integer limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidEndpointRequestException(
                    "limit must be 1 to " + MAX_LIMIT + ": " + limit, "Invalid limit");
        }
        return limit;
    }
}
