package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.DelayQueue;
import io.queuekit.MessageQueue;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import io.queuekit.spring.boot.QueuekitProperties.Queue;
import io.queuekit.spring.boot.QueuekitProperties.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Turns {@code queuekit.queues.*} into beans before any bean is made: binds the properties
 * strictly (a property no queue knows fails start-up, naming it), finds the listener methods on the
 * beans' classes, and registers one bean per queue with its generic type, so that
 * {@code MessageQueue<Order>} injects the queue whose payload type is {@code Order}. The queues
 * themselves are built by {@link QueueFactory} when first needed.
 */
final class QueueRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {
    static final String DEFINITIONS = "queuekitQueueDefinitions";
    static final String FACTORY = "queuekitQueueFactory";
    /** The second part of every {@code queuekit.*} property, in uniform form; {@code redis} is the test fixtures'. */
    private static final Set<String> TOP_LEVEL = Set.of("transport", "queues", "inmemory", "health", "redis");

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        QueueDefinitions definitions = new QueueDefinitions(bind(environment), findListeners(registry));
        register(registry, DEFINITIONS, QueueDefinitions.class, ResolvableType.forClass(QueueDefinitions.class),
                () -> definitions, null);
        for (Definition queue : definitions.queues.values()) {
            registerQueue(registry, queue);
        }
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        // everything happens above
    }

    /** The {@code queuekit.*} properties, bound strictly. */
    static QueuekitProperties bind(Environment environment) {
        checkTopLevelNames(environment);
        Binder binder = Binder.get(environment);
        BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
        QueuekitProperties properties = new QueuekitProperties();
        binder.bind("queuekit.transport", QueuekitProperties.Transport.class).ifBound(properties::setTransport);
        binder.bind("queuekit.in-memory", Bindable.ofInstance(properties.getInMemory()), strict);
        binder.bind("queuekit.health", Bindable.ofInstance(properties.getHealth()), strict);
        binder.bind("queuekit.queues", Bindable.mapOf(String.class, Queue.class), strict)
                .ifBound(queues -> properties.getQueues().putAll(queues));
        return properties;
    }

    private static void checkTopLevelNames(Environment environment) {
        ConfigurationPropertyName root = ConfigurationPropertyName.of("queuekit");
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource names) {
                names.filter(root::isAncestorOf).stream()
                        .filter(name -> !TOP_LEVEL.contains(name.getElement(1, Form.UNIFORM)))
                        .findFirst()
                        .ifPresent(name -> {
                            throw new QueueConfigurationException("Unknown property " + name + ": queuekit has "
                                    + "queuekit.transport, queuekit.queues.*, queuekit.in-memory.* and queuekit.health.*",
                                    "Remove " + name + " or correct its name.");
                        });
            }
        }
    }

    /** The listener methods of every bean whose class can be told without making it. */
    private List<ListenerMethod> findListeners(BeanDefinitionRegistry registry) {
        List<ListenerMethod> found = new ArrayList<>();
        if (!(registry instanceof ConfigurableListableBeanFactory beanFactory)) {
            return found;
        }
        for (String name : registry.getBeanDefinitionNames()) {
            BeanDefinition definition = registry.getBeanDefinition(name);
            if (definition.isAbstract() || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
                continue;
            }
            Class<?> type;
            try {
                type = beanFactory.getType(name, false);
            } catch (RuntimeException e) {
                continue; // a bean whose type needs it made: it cannot be one of ours to find here
            }
            if (type != null && !type.getName().startsWith("org.springframework.")) {
                found.addAll(ListenerMethod.find(name, ClassUtils.getUserClass(type), environment));
            }
        }
        return found;
    }

    private static void registerQueue(BeanDefinitionRegistry registry, Definition queue) {
        Class<?> api = switch (queue.type()) {
            case LIST -> MessageQueue.class;
            case DELAY -> DelayQueue.class;
            case BROADCAST -> Broadcaster.class;
        };
        String beanName = beanName(queue.name(), queue.type());
        if (registry.containsBeanDefinition(beanName)) {
            throw new QueueConfigurationException("queuekit.queues." + queue.name() + " would be the bean '" + beanName
                    + "', but the application already has a bean of that name",
                    "Rename the queue or the other bean.");
        }
        ConfigurableListableBeanFactory beanFactory = (ConfigurableListableBeanFactory) registry;
        register(registry, beanName, api, ResolvableType.forClassWithGenerics(api, queue.payloadType()),
                () -> beanFactory.getBean(FACTORY, QueueFactory.class).create(queue), queue.name());
        // so that a field or parameter named like the queue picks it where several queues share a
        // payload type (a DelayQueue<Order> is a MessageQueue<Order> too)
        if (!registry.containsBeanDefinition(queue.name()) && !registry.isAlias(queue.name())) {
            registry.registerAlias(beanName, queue.name());
        }
    }

    /**
     * {@code ordersQueue}, {@code pricesBroadcaster}: not the bare queue name, which an application's
     * own {@code Orders} service would already hold. The bare name is an alias where it is free.
     */
    static String beanName(String queue, Type type) {
        return queue + (type == Type.BROADCAST ? "Broadcaster" : "Queue");
    }

    private static void register(BeanDefinitionRegistry registry, String name, Class<?> type, ResolvableType target,
            java.util.function.Supplier<?> supplier, String qualifier) {
        RootBeanDefinition definition = new RootBeanDefinition(type);
        definition.setTargetType(target);
        definition.setInstanceSupplier(supplier::get);
        if (qualifier != null) {
            definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, qualifier));
            definition.setDependsOn(FACTORY);
            definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
        } else {
            definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        }
        registry.registerBeanDefinition(name, definition);
    }
}
