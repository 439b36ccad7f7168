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

    final QueuekitProperties properties;
    final Map<String, Definition> queues;
    final List<ListenerMethod> listeners;

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
        this.properties = properties;
        this.listeners = List.copyOf(listeners);
        Map<String, Definition> defined = new LinkedHashMap<>();
        properties
                .getQueues()
                .forEach((name, settings) ->
                        defined.put(name, new Definition(name, settings, payloadType(name, settings, listeners))));
        this.queues = Map.copyOf(defined);
        listeners.forEach(this::check);
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
        Definition queue = queues.get(listener.queue());
        if (queue == null) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue() + "', which no property declares (declared: "
                            + new ArrayList<>(queues.keySet()) + ")",
                    "Declare it, e.g. queuekit.queues." + listener.queue() + ".type="
                            + (listener.broadcast() ? "broadcast" : "list") + ", or fix the name.");
        }
        if (listener.broadcast() != (queue.type() == QueuekitProperties.Type.BROADCAST)) {
            throw new QueueConfigurationException(
                    listener.describe() + " names '" + listener.queue() + "', which is " + "declared as "
                            + queue.property("type") + "=" + lower(queue.type()),
                    listener.broadcast()
                            ? "Use @QueueListener for a list or delay queue."
                            : "Use @BroadcastListener for a broadcast channel.");
        }
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
        return listeners.stream().mapToInt(ListenerMethod::concurrency).sum() + SPARE_CONNECTIONS;
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
