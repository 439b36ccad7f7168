package io.queuekit.spring.boot;

import io.queuekit.spring.boot.QueuekitProperties.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queues the properties declare and the listener methods found on the beans, checked against
 * each other, with each queue's payload type settled: as configured, else the one its listener
 * methods take, else {@code String}. Made once, before any bean.
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
    record Definition(String name, Queue settings, Class<?> payloadType) {
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

    private static Class<?> payloadType(String name, Queue settings, List<ListenerMethod> listeners) {
        if (settings.getPayloadType() != null) {
            return settings.getPayloadType();
        }
        Set<Class<?>> asked = new LinkedHashSet<>();
        listeners.stream().filter(l -> l.queue().equals(name)).forEach(l -> asked.add(l.payloadType()));
        if (asked.size() > 1 || asked.contains(Object.class)) {
            throw new QueueConfigurationException(
                    "The listener methods of queue '" + name + "' take different or " + "untyped payloads " + asked
                            + ", so queuekit.queues." + name + ".payload-type cannot be inferred",
                    "Set queuekit.queues." + name + ".payload-type to the class of the queue's payloads.");
        }
        return asked.isEmpty() ? String.class : asked.iterator().next();
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
        if (!listener.payloadType().isAssignableFrom(queue.payloadType())) {
            throw new QueueConfigurationException(
                    listener.describe() + " takes " + listener.payloadType().getName() + ", but "
                            + queue.property("payload-type") + " is "
                            + queue.payloadType().getName(),
                    "Make the parameter " + queue.payloadType().getSimpleName() + " or change "
                            + queue.property("payload-type") + ".");
        }
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
