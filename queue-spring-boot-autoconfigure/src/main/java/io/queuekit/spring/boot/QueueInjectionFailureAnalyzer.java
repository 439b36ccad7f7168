package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.MessageQueue;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import java.lang.reflect.ParameterizedType;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

/**
 * When a {@code MessageQueue<T>}, {@code DelayQueue<T>}, {@code Broadcaster<T>} or
 * {@code Topic<T>} cannot be injected, says which queues there are and with which payload types,
 * rather than Spring's advice to define a bean: the usual cause is a queue the application only
 * sends to, whose payload type no listener method names, so that it holds Strings until
 * {@code payload-type} says otherwise.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class QueueInjectionFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {
    private final BeanFactory beans;

    QueueInjectionFailureAnalyzer(BeanFactory beans) {
        this.beans = beans;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        ResolvableType wanted = cause.getResolvableType();
        if (wanted == null
                || !(MessageQueue.class.isAssignableFrom(wanted.toClass())
                        || Broadcaster.class.isAssignableFrom(wanted.toClass()))
                || beans == null) {
            return null;
        }
        QueueDefinitions definitions =
                beans.getBeanProvider(QueueDefinitions.class).getIfAvailable();
        if (definitions == null) {
            return null;
        }
        StringJoiner declared = new StringJoiner(", ");
        new TreeMap<>(definitions.queues).forEach((name, d) -> declared.add(name + ": " + describe(d, definitions)));
        ResolvableType payload = wanted.getGeneric(0);
        String action = payload.getType() instanceof ParameterizedType
                ? "A payload type with type arguments, such as "
                        + QueueDefinitions.simpleName(ListenerMethod.concrete(payload))
                        + ", comes from the parameter of the queue's @QueueListener method, which payload-type (a class) "
                        + "cannot say: add a listener method that takes it, or wrap the payload in a record of "
                        + "your own and set queuekit.queues.<name>.payload-type to that record."
                : "Set queuekit.queues.<name>.payload-type="
                        + (payload.resolve() == null
                                ? "<the payload class>"
                                : payload.toClass().getName())
                        + " for the queue meant: a queue that no @QueueListener method names holds Strings unless "
                        + "payload-type says otherwise. Or declare the queue with queuekit.queues.<name>.type.";
        return new FailureAnalysis(
                "No declared queue is a bean of type " + wanted + ". The queues declared are "
                        + (definitions.queues.isEmpty() ? "none" : declared.toString()) + ".",
                action,
                cause);
    }

    private static String describe(Definition d, QueueDefinitions definitions) {
        String api = switch (d.type()) {
            case LIST -> "MessageQueue";
            case DELAY -> "DelayQueue";
            case BROADCAST -> "Broadcaster";
            case STREAM -> "Topic";
        };
        String from = d.settings().getPayloadType() != null
                ? "payload-type"
                : definitions.listeners.stream().anyMatch(l -> l.queue().equals(d.name()))
                        ? "from its listener"
                        : "no payload-type and no listener";
        return api + "<" + QueueDefinitions.simpleName(d.payloadType()) + "> (" + from + ")";
    }
}
