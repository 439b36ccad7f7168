package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.MessageQueue;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.BeanFactory;

/** The configured queues by name, for the health indicator, the endpoint and the listener container. */
final class QueueCatalog {
    private final QueueDefinitions definitions;
    private final BeanFactory beans;

    QueueCatalog(QueueDefinitions definitions, BeanFactory beans) {
        this.definitions = definitions;
        this.beans = beans;
    }

    /** Every queue and broadcaster, by name, in name order. */
    Map<String, Object> all() {
        Map<String, Object> all = new TreeMap<>();
        definitions.queues.values().forEach(d -> all.put(d.name(), bean(d)));
        return all;
    }

    Definition definition(String name) {
        return definitions.queues.get(name);
    }

    /** The queue named {@code name}, or null if there is none or it is a broadcast. */
    MessageQueue<?> queue(String name) {
        Definition d = definitions.queues.get(name);
        return d == null || d.type() == QueuekitProperties.Type.BROADCAST ? null : (MessageQueue<?>) bean(d);
    }

    Broadcaster<?> broadcaster(String name) {
        return (Broadcaster<?>) bean(definitions.queues.get(name));
    }

    private Object bean(Definition d) {
        return beans.getBean(QueueRegistrar.beanName(d.name(), d.type()));
    }
}
