package io.queuekit.spring.boot;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Listener and {@link QueueSchedule} methods are found on the bean types known before any bean is made, which is what lets
 * them set the queues' payload types and the pool. A bean whose declared type hides them (a
 * {@code @Bean} method that returns an interface, while the object it makes has the annotated
 * method) would never be called: this check fails start-up for it instead of leaving its queue
 * unconsumed.
 */
final class UnseenListenerCheck implements BeanPostProcessor {
    private final ObjectProvider<QueueDefinitions> definitions;
    private final Environment environment;
    /** Bean name and method of each listener the queues were set up with. */
    private volatile Set<String> known;
    /** Classes without listener methods, so that each is introspected once however many beans it makes. */
    private final Set<Class<?>> plain = ConcurrentHashMap.newKeySet();

    UnseenListenerCheck(ObjectProvider<QueueDefinitions> definitions, Environment environment) {
        this.definitions = definitions;
        this.environment = environment;
    }

    private Set<String> known() {
        Set<String> k = known;
        if (k == null) {
            QueueDefinitions d = definitions.getObject();
            k = java.util.stream.Stream.concat(
                            d.listeners.stream().map(l -> key(l.beanName(), l.method())),
                            d.scheduledMethods.values().stream().map(m -> key(m.beanName(), m.method())))
                    .collect(Collectors.toSet());
            known = k;
        }
        return k;
    }

    private static String key(String beanName, Method method) {
        return beanName + " " + method;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = ClassUtils.getUserClass(bean);
        if (type.getName().startsWith("org.springframework.") || plain.contains(type)) {
            return bean;
        }
        var listeners = ListenerMethod.find(beanName, type, environment);
        var scheduled = ScheduledMethod.find(beanName, type, environment);
        if (listeners.isEmpty() && scheduled.isEmpty()) {
            plain.add(type);
        }
        for (ScheduledMethod method : scheduled) {
            if (!known().contains(key(beanName, method.method()))) {
                throw new QueueConfigurationException(
                        method.describe() + " on bean '" + beanName + "' was not seen "
                                + "when the queues were set up: the bean's declared type does not show the method",
                        "Declare the bean with its class (for a @Bean method, make that the return type).");
            }
        }
        for (ListenerMethod listener : listeners) {
            if (!known().contains(key(beanName, listener.method()))) {
                throw new QueueConfigurationException(
                        listener.describe() + " on bean '" + beanName + "' was not seen "
                                + "when the queues were set up: the bean's declared type does not show the method",
                        "Declare the bean with its class (for a @Bean method, make that the return type).");
            }
        }
        return bean;
    }
}
