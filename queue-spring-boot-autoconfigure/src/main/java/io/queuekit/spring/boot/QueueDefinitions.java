package io.queuekit.spring.boot;

import io.queuekit.spring.boot.QueuekitProperties.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import org.springframework.core.ResolvableType;

/**
 * The queues the properties declare and the listener methods found on the beans, checked against
 * each other, with each queue's payload type settled: as configured, else the one its listener
 * methods take (type arguments included: {@code List<Order>}), else {@code String}. Made once,
 * before any bean.
 */
final class QueueDefinitions {
    /** Default block timeout of the Redis queues (RedisQueueBuilder's). */
    private static final Duration DEFAULT_BLOCK_TIMEOUT = Duration.ofSeconds(1);
    /** Connections kept beyond those waiting consumers and subscriptions hold: producers, health, endpoint. */
    static final int SPARE_CONNECTIONS = 16;
    /** Most workers of the schedule queue's consumer. */
    static final int MAX_SCHEDULE_WORKERS = 8;

    final QueuekitProperties properties;
    final Map<String, Definition> queues;
    final List<ListenerMethod> listeners;
    /** The {@link QueueSchedule} methods, by schedule name. */
    final Map<String, ScheduledMethod> scheduledMethods;
    /** The queue that runs {@link #scheduledMethods}; null if there are none. */
    final String scheduleQueue;
    /** The entries of {@code queuekit.schedules}, by name. */
    final Map<String, PropertySchedule> schedules;

    /** One declared queue, with its settled payload type. */
    record Definition(String name, Queue settings, ResolvableType payloadType) {
        QueuekitProperties.Type type() {
            return settings.getType();
        }

        String property(String setting) {
            return "queuekit.queues." + name + "." + setting;
        }
    }

    QueueDefinitions(QueuekitProperties properties, List<ListenerMethod> listeners) {
        this(properties, listeners, List.of());
    }

    QueueDefinitions(
            QueuekitProperties properties, List<ListenerMethod> listeners, List<ScheduledMethod> scheduledMethods) {
        this.properties = properties;
        this.listeners = List.copyOf(listeners);
        Map<String, Definition> defined = new LinkedHashMap<>();
        properties
                .getQueues()
                .forEach((name, settings) ->
                        defined.put(name, new Definition(name, settings, payloadType(name, settings, listeners))));
        this.scheduledMethods = byName(scheduledMethods);
        this.scheduleQueue = scheduledMethods.isEmpty() ? null : scheduleQueue(properties, defined);
        this.queues = Map.copyOf(defined);
        listeners.forEach(this::check);
        Map<String, PropertySchedule> declared = new LinkedHashMap<>();
        properties.getSchedules().forEach((name, s) -> declared.put(name, check(PropertySchedule.of(name, s))));
        this.schedules = java.util.Collections.unmodifiableMap(declared);
    }

    private static Map<String, ScheduledMethod> byName(List<ScheduledMethod> methods) {
        Map<String, ScheduledMethod> byName = new LinkedHashMap<>();
        for (ScheduledMethod m : methods) {
            ScheduledMethod other = byName.putIfAbsent(m.name(), m);
            if (other != null) {
                throw new QueueConfigurationException(
                        other.describe() + " and " + m.describe() + " have the same schedule name '" + m.name() + "'",
                        "Give one of them a name of its own: @QueueSchedule(name = \"...\").");
            }
        }
        return java.util.Collections.unmodifiableMap(byName);
    }

    /**
     * The queue of the schedule methods: the entry of {@code queuekit.schedule-queue}'s name if the
     * properties declare one (a delay queue of strings, to set its retries and other settings), else
     * a delay queue with the default settings, added to {@code defined}.
     */
    private static String scheduleQueue(QueuekitProperties properties, Map<String, Definition> defined) {
        String name = properties.getScheduleQueue();
        Definition declared = defined.get(name);
        if (declared == null) {
            Queue settings = new Queue();
            settings.setType(QueuekitProperties.Type.DELAY);
            settings.setKeyPrefix(properties.getKeyPrefix());
            defined.put(name, new Definition(name, settings, ResolvableType.forClass(String.class)));
        } else if (declared.type() != QueuekitProperties.Type.DELAY
                || declared.payloadType().toClass() != String.class) {
            throw new QueueConfigurationException(
                    "queuekit.queues." + name
                            + " is the queue of the @QueueSchedule methods (queuekit.schedule-queue), "
                            + "which must be a delay queue of strings, but it is declared as "
                            + declared.property("type") + "=" + lower(declared.type()) + " of "
                            + name(declared.payloadType()),
                    "Set " + declared.property("type") + "=delay and leave its payload-type unset, or name another "
                            + "queue in queuekit.schedule-queue.");
        }
        return name;
    }

    /** A schedule of the properties names a declared delay queue, not that of the schedule methods. */
    private PropertySchedule check(PropertySchedule schedule) {
        Definition queue = queues.get(schedule.queue());
        if (queue == null) {
            throw new QueueConfigurationException(
                    schedule.property("queue") + "=" + schedule.queue() + " names no queue (declared: "
                            + new ArrayList<>(properties.getQueues().keySet()) + ")",
                    "Declare it, e.g. queuekit.queues." + schedule.queue() + ".type=delay, or fix the name.");
        }
        if (queue.type() != QueuekitProperties.Type.DELAY) {
            throw new QueueConfigurationException(
                    schedule.property("queue") + "=" + schedule.queue() + " names a queue declared as "
                            + queue.property("type") + "=" + lower(queue.type())
                            + "; schedules store their messages on delay queues",
                    "Set " + queue.property("type") + "=delay, or name a delay queue.");
        }
        if (schedule.queue().equals(scheduleQueue)) {
            throw new QueueConfigurationException(
                    schedule.property("queue") + "=" + schedule.queue()
                            + " names the queue of the @QueueSchedule methods (queuekit.schedule-queue)",
                    "Name another delay queue, or make the schedule a @QueueSchedule method.");
        }
        return schedule;
    }

    /**
     * As configured, else what the listener methods take. The property names a class; where the
     * listeners all take that class with type arguments ({@code List<Order>} for
     * {@code java.util.List}), the listeners' type is used, type arguments and all.
     */
    private static ResolvableType payloadType(String name, Queue settings, List<ListenerMethod> listeners) {
        List<ListenerMethod> own =
                listeners.stream().filter(l -> l.queue().equals(name)).toList();
        Set<ResolvableType> asked = new LinkedHashSet<>();
        own.forEach(l -> asked.add(l.payloadType()));
        Class<?> configured = settings.getPayloadType();
        if (configured != null) {
            ResolvableType only = asked.size() == 1 ? asked.iterator().next() : null;
            return only != null && !(only.getType() instanceof Class<?>) && only.toClass() == configured
                    ? only
                    : ResolvableType.forClass(configured);
        }
        if (asked.size() > 1 || asked.stream().anyMatch(t -> t.toClass() == Object.class)) {
            StringJoiner each = new StringJoiner("; ");
            own.forEach(l -> each.add(ListenerMethod.describe(l.method()) + " takes " + name(l.payloadType())));
            throw new QueueConfigurationException(
                    "The listener methods of queue '" + name + "' take different or untyped payloads (" + each
                            + "), so queuekit.queues." + name + ".payload-type cannot be inferred",
                    "Make them take one payload type, or set queuekit.queues." + name
                            + ".payload-type to the class of the queue's payloads.");
        }
        return asked.isEmpty()
                ? ResolvableType.forClass(String.class)
                : asked.iterator().next();
    }

    private void check(ListenerMethod listener) {
        if (listener.queue().equals(scheduleQueue)) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue()
                            + "', the queue of the @QueueSchedule methods (queuekit.schedule-queue)",
                    "Name another queue, or set queuekit.schedule-queue to a name of its own.");
        }
        Definition queue = queues.get(listener.queue());
        if (queue == null) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue() + "', which no property declares (declared: "
                            + new ArrayList<>(queues.keySet()) + ")",
                    "Declare it, e.g. queuekit.queues." + listener.queue() + ".type="
                            + (listener.broadcast() ? "broadcast" : listener.group() != null ? "stream" : "list")
                            + ", or fix the name.");
        }
        checkKind(listener, queue);
        ResolvableType takes = listener.payloadType();
        if (!takes.isAssignableFrom(queue.payloadType())) {
            // only a configured payload-type can differ from what the listeners take
            throw new QueueConfigurationException(
                    listener.describe() + " takes " + name(takes) + ", but " + queue.property("payload-type") + " is "
                            + name(queue.payloadType()),
                    takes.getType() instanceof Class<?>
                            ? "Make the parameter " + simpleName(queue.payloadType()) + " or change "
                                    + queue.property("payload-type") + "."
                            : "Leave " + queue.property("payload-type") + " unset, or set it to "
                                    + takes.toClass().getName() + ": a type with type arguments ("
                                    + simpleName(takes) + ") comes from the listener's parameter.");
        }
    }

    /**
     * A broadcast listener names a broadcast or a stream; a queue listener a list or delay queue, or
     * a stream with the group it consumes.
     */
    private static void checkKind(ListenerMethod listener, Definition queue) {
        QueuekitProperties.Type type = queue.type();
        String declared = "declared as " + queue.property("type") + "=" + lower(type);
        if (listener.broadcast()) {
            if (type != QueuekitProperties.Type.BROADCAST && type != QueuekitProperties.Type.STREAM) {
                throw new QueueConfigurationException(
                        listener.describe() + " names '" + listener.queue() + "', which is " + declared,
                        "Use @QueueListener for a list or delay queue.");
            }
            return;
        }
        if (type == QueuekitProperties.Type.BROADCAST) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue() + "', which is " + declared,
                    "Use @BroadcastListener for a broadcast channel.");
        }
        if (type == QueuekitProperties.Type.STREAM && listener.group() == null) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue() + "', which is " + declared
                            + ", but no group: a stream's messages go to each of its consumer groups",
                    "Name the group the method consumes, the same in every instance of the service: "
                            + "@QueueListener(queue = \"" + listener.queue() + "\", group = \"...\"); or use "
                            + "@BroadcastListener for a subscription of this instance alone.");
        }
        if (type != QueuekitProperties.Type.STREAM && listener.group() != null) {
            throw new QueueConfigurationException(
                    listener.describeWithGroup() + " names '" + listener.queue() + "', which is " + declared
                            + "; only a stream has consumer groups",
                    "Remove group from " + listener.describe() + ", or set " + queue.property("type") + "=stream.");
        }
    }

    /** {@code java.util.List<com.example.Order>}, {@code byte[]}: the full name, for messages. */
    static String name(ResolvableType type) {
        return type.getType() instanceof Class<?> c ? c.getTypeName() : type.toString();
    }

    /** {@code List<Order>}: the short name, for messages. */
    static String simpleName(ResolvableType type) {
        if (type.getType() instanceof Class<?> c) {
            return c.getSimpleName();
        }
        if (type.isArray()) {
            return simpleName(type.getComponentType()) + "[]";
        }
        StringJoiner arguments = new StringJoiner(", ", "<", ">");
        for (ResolvableType argument : type.getGenerics()) {
            arguments.add(simpleName(argument));
        }
        return type.toClass().getSimpleName() + arguments;
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Connections that listeners hold while they wait, plus {@link #SPARE_CONNECTIONS}. */
    int poolSize() {
        return listeners.stream().mapToInt(ListenerMethod::concurrency).sum()
                + scheduleConcurrency()
                + SPARE_CONNECTIONS;
    }

    /** Workers running the {@link QueueSchedule} methods: one per method, at most {@value #MAX_SCHEDULE_WORKERS}. */
    int scheduleConcurrency() {
        return Math.min(scheduledMethods.size(), MAX_SCHEDULE_WORKERS);
    }

    /** The longest block timeout of any queue, which the client's blocking read timeout must exceed. */
    Duration longestBlockTimeout() {
        return queues.values().stream()
                .map(d -> d.settings().getBlockTimeout())
                .filter(t -> t != null)
                .max(Duration::compareTo)
                .filter(t -> t.compareTo(DEFAULT_BLOCK_TIMEOUT) > 0)
                .orElse(DEFAULT_BLOCK_TIMEOUT);
    }
}
