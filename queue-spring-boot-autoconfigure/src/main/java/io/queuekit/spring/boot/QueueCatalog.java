package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.ConsumerGroup;
import io.queuekit.MessageQueue;
import io.queuekit.Topic;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.BeanFactory;

/**
 * The configured queues by name, for the health indicator, the endpoint and the listener container;
 * and the consumer groups of the streams that listeners consume, one object per group, so that a
 * listener paused and resumed many times reuses it (the topic closes it when it closes).
 */
final class QueueCatalog {
    private final QueueDefinitions definitions;
    private final BeanFactory beans;
    /** By topic name, then group name. */
    private final Map<List<String>, ConsumerGroup<?>> groups = new ConcurrentHashMap<>();

    QueueCatalog(QueueDefinitions definitions, BeanFactory beans) {
        this.definitions = definitions;
        this.beans = beans;
    }

    /** Every queue, broadcaster and topic, by name, in name order. */
    Map<String, Object> all() {
        Map<String, Object> all = new TreeMap<>();
        definitions.queues.values().forEach(d -> all.put(d.name(), bean(d)));
        return all;
    }

    Definition definition(String name) {
        return definitions.queues.get(name);
    }

    /** The queue named {@code name}, or null if there is none or it is a broadcast or a stream. */
    MessageQueue<?> queue(String name) {
        Definition d = definitions.queues.get(name);
        return d == null || d.type() == QueuekitProperties.Type.BROADCAST || d.type() == QueuekitProperties.Type.STREAM
                ? null
                : (MessageQueue<?>) bean(d);
    }

    /** The broadcaster of a broadcast or a stream. */
    Broadcaster<?> broadcaster(String name) {
        return (Broadcaster<?>) bean(definitions.queues.get(name));
    }

    /** The topic of the stream named {@code name}, or null if there is none or it is not a stream. */
    Topic<?> topic(String name) {
        Definition d = definitions.queues.get(name);
        return d == null || d.type() != QueuekitProperties.Type.STREAM ? null : (Topic<?>) bean(d);
    }

    /** The group {@code group} of the stream {@code topic}, created on the stream if it is new. */
    ConsumerGroup<?> group(String topic, String group) {
        Topic<?> t = topic(topic);
        if (t == null) {
            throw new IllegalArgumentException("no stream '" + topic + "' in " + definitions.queues.keySet());
        }
        return groups.computeIfAbsent(List.of(topic, group), k -> t.group(group));
    }

    private Object bean(Definition d) {
        return beans.getBean(QueueRegistrar.beanName(d.name(), d.type()));
    }
}
