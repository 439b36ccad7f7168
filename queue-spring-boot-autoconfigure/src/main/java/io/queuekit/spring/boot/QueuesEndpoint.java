package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.ConsumerGroup;
import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.DelayQueue;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Scheduler;
import io.queuekit.Topic;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code queues} Actuator endpoint: what the {@code queuekit} command line offers, over HTTP or
 * JMX. Reads ({@code GET /actuator/queues}, {@code /actuator/queues/{name}}, each delay queue with
 * its schedules and each stream with its groups,
 * {@code /actuator/queues/{name}/peek?limit=}, {@code /actuator/queues/{name}/dead-letters?limit=}) are
 * open once the endpoint is exposed; the writes, {@code POST /actuator/queues/{name}/requeue} and
 * {@code /purge} of dead letters with {@code {"id": "..."}} for one or {@code {"all": true}} for all,
 * and {@code POST /actuator/queues/{name}/pause} and {@code /resume} of the queue, need
 * {@code management.endpoint.queues.access=unrestricted}. A stream's dead letters and pausing are
 * its groups': {@code /actuator/queues/{name}/{group}/dead-letters}, {@code .../{group}/requeue}
 * and so on; a group is never created by the endpoint.
 */
@Endpoint(id = "queues", defaultAccess = Access.READ_ONLY)
public final class QueuesEndpoint {
    /** The most messages one read returns. */
    static final int MAX_LIMIT = 1000;

    private static final int DEFAULT_LIMIT = 20;

    private final QueueCatalog catalog;
    /** A scheduler per delay queue, to read its schedules; closed with the queue. */
    private final Map<String, Scheduler<?>> readers = new ConcurrentHashMap<>();

    QueuesEndpoint(QueueCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * One queue, broadcast channel or stream as the endpoint shows it.
     *
     * @param stats the counts of a list or delay queue; null for broadcasts and streams
     * @param schedules a delay queue's stored schedules, by name; null for other queues
     * @param size the messages a stream holds, for all its groups together; null for other queues
     * @param groups a stream's consumer groups as stored, subscriptions included, in name order;
     *     null for other queues
     */
    public record QueueView(
            String name,
            String type,
            String transport,
            @Nullable QueueStats stats,
            @Nullable List<ScheduleView> schedules,
            @Nullable Long size,
            @Nullable List<GroupInfo> groups) {}

    /**
     * A schedule stored for a delay queue, as {@link io.queuekit.Scheduler#list()} reads it.
     *
     * @param trigger the trigger's text ({@code cron Europe/Berlin 0 30 2 * * *}, {@code every PT5M
     *     from 1970-01-01T00:00:00Z}, {@code once <instant>})
     * @param missed {@code fire-once} or {@code skip}
     * @param lastRun the latest tick that fell due; null if none yet
     * @param nextRun the next tick; null if there is none
     */
    public record ScheduleView(
            String name,
            String trigger,
            String missed,
            @Nullable Instant lastRun,
            @Nullable Instant nextRun) {}

    /**
     * A message waiting in a queue, with the field names of the command line's {@code peek}.
     *
     * @param headers the headers it was sent with, by name in their order; empty if none
     */
    public record WaitingView(
            String id,
            int attempt,
            Instant sentAt,
            @Nullable Instant dueAt,
            Map<String, String> headers,
            Object payload) {}

    /**
     * A dead letter.
     *
     * @param headers the headers it was sent with, by name in their order; empty if none
     */
    public record DeadLetterView(
            String id, int attempts, String reason, Instant deadAt, Map<String, String> headers, Object payload) {}

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
            return new QueueView(name, type, broadcaster.semantics().transport(), null, null, null, null);
        }
        if (definition.type() == QueuekitProperties.Type.STREAM) {
            Topic<?> topic = catalog.topic(name);
            return new QueueView(name, type, topic.semantics().transport(), null, null, topic.size(), topic.groups());
        }
        MessageQueue<?> queue = catalog.queue(name);
        return new QueueView(
                name,
                type,
                queue.semantics().transport(),
                queue.stats(),
                queue instanceof DelayQueue<?> delay ? schedules(delay) : null,
                null,
                null);
    }

    /**
     * Read with a scheduler kept per queue for reading, which is never started and so stores nothing
     * (a queue keeps every scheduler it made until it closes, so one per read would pile up).
     */
    private List<ScheduleView> schedules(DelayQueue<?> queue) {
        Scheduler<?> scheduler = readers.computeIfAbsent(queue.name(), n -> queue.scheduler());
        return scheduler.list().stream()
                .sorted(Comparator.comparing(i -> i.schedule().name()))
                .map(i -> new ScheduleView(
                        i.schedule().name(),
                        i.schedule().trigger().toString(),
                        QueueDefinitions.lower(i.schedule().missed()),
                        i.lastRun(),
                        i.nextRun()))
                .toList();
    }

    /**
     * {@code peek}: the next messages to be delivered (Redis queues only); {@code dead-letters}: the
     * dead letters, oldest first (as {@link io.queuekit.DeadLetters#list} returns them).
     */
    @ReadOperation
    public WebEndpointResponse<Object> messages(@Selector String name, @Selector String part, @Nullable String limit) {
        try {
            MessageQueue<?> queue = queueOrStream(name, part);
            if (queue == null) {
                return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
            }
            return new WebEndpointResponse<>(messages(queue, part, limit(limit)));
        } catch (BadRequest e) {
            return e.response();
        }
    }

    /** {@code dead-letters} of one consumer group of a stream, as {@link #messages} reads a queue's. */
    @ReadOperation
    public WebEndpointResponse<Object> groupMessages(
            @Selector String name, @Selector String group, @Selector String part, @Nullable String limit) {
        try {
            ConsumerGroup<?> consumerGroup = group(name, group);
            if (consumerGroup == null) {
                return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
            }
            return new WebEndpointResponse<>(messages(consumerGroup, part, limit(limit)));
        } catch (BadRequest e) {
            return e.response();
        }
    }

    /** The queue named {@code name}; null if there is none; refused for a stream, whose groups hold its messages. */
    private @Nullable MessageQueue<?> queueOrStream(String name, String part) {
        if (catalog.topic(name) != null) {
            throw new BadRequest(name + " is a stream, whose messages are kept for each of its groups: use "
                    + "/actuator/queues/" + name + "/{group}/" + part);
        }
        return catalog.queue(name);
    }

    /**
     * The stored group {@code group} of the stream {@code name}; null if either does not exist (so
     * that a read never creates a group, which would hold the stream's messages back).
     */
    private @Nullable ConsumerGroup<?> group(String name, String group) {
        Topic<?> topic = catalog.topic(name);
        if (topic == null || topic.groups().stream().noneMatch(g -> g.name().equals(group))) {
            return null;
        }
        return catalog.group(name, group);
    }

    private static List<?> messages(MessageQueue<?> queue, String part, int n) {
        return switch (part) {
            case "peek" ->
                peek(queue, n).stream()
                        .map(m -> new WaitingView(
                                m.id().value(),
                                m.attempt(),
                                m.enqueuedAt(),
                                m.dueAt(),
                                m.headers().asMap(),
                                m.payload()))
                        .toList();
            case "dead-letters" ->
                queue.deadLetters().list(n).stream().map(QueuesEndpoint::view).toList();
            default -> throw new BadRequest("no part '" + part + "': use peek or dead-letters");
        };
    }

    private static List<? extends WaitingMessage<?>> peek(MessageQueue<?> queue, int n) {
        if (queue instanceof ConsumerGroup<?> group) {
            throw new BadRequest(
                    "the group " + group.name() + " of " + group.topic() + " cannot be peeked: read its dead letters");
        }
        if (queue instanceof RedisListQueue<?> list) {
            return list.peek(n);
        }
        if (queue instanceof RedisDelayQueue<?> delay) {
            return delay.peek(n);
        }
        throw new BadRequest(queue.name() + " is an in-memory queue, which cannot be peeked");
    }

    private static DeadLetterView view(DeadLetter<?> d) {
        return new DeadLetterView(
                d.id().value(),
                d.attempts(),
                d.reason(),
                d.deadAt(),
                d.headers().asMap(),
                d.payload());
    }

    /**
     * {@code requeue} moves dead letters back to be delivered again, {@code purge} deletes them: the
     * one named by {@code id}, or all of them with {@code all=true}; returns how many it changed.
     * {@code pause} and {@code resume} pause and resume the queue (see
     * {@link MessageQueue#pause()}), for every process that uses it, and take neither; they
     * return whether the queue is paused now.
     */
    @WriteOperation
    public WebEndpointResponse<Object> write(
            @Selector String name, @Selector String action, @Nullable String id, @Nullable String all) {
        try {
            return write(queueOrStream(name, action), action, id, all);
        } catch (BadRequest e) {
            return e.response();
        }
    }

    /**
     * The writes of {@link #write} on one consumer group of a stream: its dead letters, requeued
     * to this group alone, and pausing this group alone.
     */
    @WriteOperation
    public WebEndpointResponse<Object> groupWrite(
            @Selector String name,
            @Selector String group,
            @Selector String action,
            @Nullable String id,
            @Nullable String all) {
        try {
            return write(group(name, group), action, id, all);
        } catch (BadRequest e) {
            return e.response();
        }
    }

    private static WebEndpointResponse<Object> write(
            @Nullable MessageQueue<?> queue, String action, @Nullable String id, @Nullable String all) {
        if (queue == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        if (action.equals("pause") || action.equals("resume")) {
            return new WebEndpointResponse<>(pauseOrResume(queue, action, id, all));
        }
        return new WebEndpointResponse<>(deadLetters(queue, action, id, all(all)));
    }

    private static Map<String, Object> pauseOrResume(
            MessageQueue<?> queue, String action, @Nullable String id, @Nullable String all) {
        if (id != null || all != null) {
            throw new BadRequest(action + " takes neither \"id\" nor \"all\": it " + action + "s the whole queue");
        }
        if (action.equals("pause")) {
            queue.pause();
        } else {
            queue.resume();
        }
        return result(queue, action, "paused", queue.isPaused());
    }

    private static Map<String, Object> deadLetters(
            MessageQueue<?> queue, String action, @Nullable String id, boolean all) {
        if (!action.equals("requeue") && !action.equals("purge")) {
            throw new BadRequest("no action '" + action + "': use requeue, purge, pause or resume");
        }
        if ((id == null) == !all) {
            throw new BadRequest(action + " needs either \"id\" (one dead letter) or "
                    + "\"all\": true (every one), not both or neither");
        }
        DeadLetters<?> dead = queue.deadLetters();
        long changed;
        if (id != null) {
            MessageId messageId;
            try {
                messageId = MessageId.of(id);
            } catch (IllegalArgumentException e) {
                throw new BadRequest("id: " + e.getMessage());
            }
            changed = (action.equals("requeue") ? dead.requeue(messageId) : dead.purge(messageId)) ? 1 : 0;
        } else {
            changed = action.equals("requeue") ? dead.requeueAll() : dead.purge();
        }
        return result(queue, action, "changed", changed);
    }

    /** What a write answers: the queue (a group's stream and group), the action, and its outcome. */
    private static Map<String, Object> result(MessageQueue<?> queue, String action, String outcome, Object value) {
        Map<String, Object> result = new LinkedHashMap<>();
        if (queue instanceof ConsumerGroup<?> group) {
            result.put("queue", group.topic());
            result.put("group", group.name());
        } else {
            result.put("queue", queue.name());
        }
        result.put("action", action);
        result.put(outcome, value);
        return result;
    }

    private static int limit(@Nullable String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        int n;
        try {
            n = Integer.parseInt(limit.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1 || n > MAX_LIMIT) {
            throw new BadRequest("limit must be a number from 1 to " + MAX_LIMIT + ": " + limit);
        }
        return n;
    }

    private static boolean all(@Nullable String all) {
        if (all == null || all.equals("false")) {
            return false;
        }
        if (all.equals("true")) {
            return true;
        }
        throw new BadRequest("all must be true or false: " + all);
    }

    /** Input the endpoint refuses: answered with status 400 and a body saying what is wrong. */
    private static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message, null, false, false);
        }

        WebEndpointResponse<Object> response() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
            body.put("error", "Bad Request");
            body.put("message", getMessage());
            return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
        }
    }
}
