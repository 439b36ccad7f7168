package io.queuekit.spring.boot;

import io.queuekit.Broadcaster;
import io.queuekit.DelayQueue;
import io.queuekit.MessageQueue;
import io.queuekit.Topic;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import io.queuekit.spring.boot.QueuekitProperties.Queue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.aot.generate.AccessControl;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ClassUtils;

/**
 * Turns {@code queuekit.queues.*} into beans before any bean is made: binds the properties
 * strictly (a property no queue knows fails start-up, naming it), finds the listener methods on the
 * beans' classes, and registers one bean per queue with its generic type, so that
 * {@code MessageQueue<Order>} injects the queue whose payload type is {@code Order}. The queues
 * themselves are built by {@link QueueFactory} when first needed.
 *
 * <p>Every bean it registers is made by a factory method from values that ahead-of-time processing
 * can write out, and the {@link QueueDefinitions} bean binds the properties again when it is made:
 * an AOT-processed application, which does not run this registrar, keeps the beans (queues, their
 * types, the listener beans) fixed at build time and reads every other setting at run time. See
 * "AOT and native images" in docs/spring-boot.md.
 */
final class QueueRegistrar
        implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryInitializationAotProcessor {
    static final String DEFINITIONS = "queuekitQueueDefinitions";
    static final String FACTORY = "queuekitQueueFactory";
    /** The second part of every {@code queuekit.*} property, in uniform form; {@code redis} is the test fixtures'. */
    private static final Set<String> TOP_LEVEL = Set.of(
            "transport",
            "keyprefix",
            "queues",
            "schedules",
            "schedulequeue",
            "inmemory",
            "health",
            "observations",
            "redis");

    private Environment environment;
    /** What the registration was made from, for the hints of ahead-of-time processing. */
    private QueueDefinitions definitions;

    private final Map<String, Class<?>> listenerBeans = new LinkedHashMap<>();

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        List<ListenerMethod> listeners = new ArrayList<>();
        List<ScheduledMethod> scheduled = new ArrayList<>();
        findListenerBeans(registry).forEach((beanName, type) -> {
            List<ListenerMethod> found = ListenerMethod.find(beanName, type, environment);
            List<ScheduledMethod> foundScheduled = ScheduledMethod.find(beanName, type, environment);
            if (!found.isEmpty() || !foundScheduled.isEmpty()) {
                listenerBeans.put(beanName, type);
                listeners.addAll(found);
                scheduled.addAll(foundScheduled);
            }
        });
        definitions = new QueueDefinitions(bind(environment), listeners, scheduled);
        Map<String, String> listenerClasses = new LinkedHashMap<>();
        listenerBeans.forEach((beanName, type) -> listenerClasses.put(beanName, type.getName()));
        Map<String, String> queueTypes = queueTypes(definitions);
        RootBeanDefinition bean = new RootBeanDefinition(QueueRegistrar.class);
        bean.setTargetType(QueueDefinitions.class);
        bean.setFactoryMethodName("definitions");
        bean.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR);
        bean.getConstructorArgumentValues().addIndexedArgumentValue(2, listenerClasses);
        bean.getConstructorArgumentValues().addIndexedArgumentValue(3, queueTypes);
        bean.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition(DEFINITIONS, bean);
        for (String name : queueTypes.keySet()) {
            registerQueue(registry, definitions.queues.get(name), name.equals(definitions.scheduleQueue));
        }
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        // everything happens above
    }

    /**
     * The {@link #DEFINITIONS} bean: the properties bound again, so that an AOT-processed
     * application reads them at run time, and the listener methods of the beans found when the
     * queues were registered, checked against the queue beans registered then.
     *
     * @param listenerClasses the class of each bean with listener methods, by bean name
     * @param registered the target type of each queue bean, by queue name
     */
    static QueueDefinitions definitions(
            Environment environment,
            ConfigurableListableBeanFactory beanFactory,
            Map<String, String> listenerClasses,
            Map<String, String> registered) {
        List<ListenerMethod> listeners = new ArrayList<>();
        List<ScheduledMethod> scheduled = new ArrayList<>();
        listenerClasses.forEach((beanName, className) -> {
            Class<?> type = ClassUtils.resolveClassName(className, beanFactory.getBeanClassLoader());
            listeners.addAll(ListenerMethod.find(beanName, type, environment));
            scheduled.addAll(ScheduledMethod.find(beanName, type, environment));
        });
        QueueDefinitions definitions = new QueueDefinitions(bind(environment), listeners, scheduled);
        Map<String, String> now = queueTypes(definitions);
        if (!now.equals(registered)) {
            throw new QueueConfigurationException(
                    "queuekit.queues declares " + now + ", but the queue beans were registered for "
                            + registered + " when the application was processed ahead of time, "
                            + "which fixes the queues, their types and their payload types",
                    "Run the AOT processing with the queuekit.queues.*.type and payload-type settings the "
                            + "application runs with (the same profiles), or keep those settings out of profiles.");
        }
        return definitions;
    }

    /** Each queue's bean type, {@code io.queuekit.MessageQueue<com.example.Order>}, by queue name in name order. */
    private static Map<String, String> queueTypes(QueueDefinitions definitions) {
        Map<String, String> types = new LinkedHashMap<>();
        new TreeMap<>(definitions.queues)
                .forEach((name, queue) -> types.put(name, targetType(queue).toString()));
        return types;
    }

    private static ResolvableType targetType(Definition queue) {
        Class<?> api = switch (queue.type()) {
            case LIST -> MessageQueue.class;
            case DELAY -> DelayQueue.class;
            case BROADCAST -> Broadcaster.class;
            case STREAM -> Topic.class;
        };
        return ResolvableType.forClassWithGenerics(api, queue.payloadType());
    }

    /** The hints an application with these queues needs in a native image; see {@link QueuekitRuntimeHints}. */
    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        QueueDefinitions registered = definitions;
        if (registered == null) {
            return null;
        }
        for (Definition queue : registered.queues.values()) {
            checkNameable(queue);
        }
        List<Class<?>> beanClasses = List.copyOf(listenerBeans.values());
        return (generationContext, code) ->
                QueuekitRuntimeHints.registerQueues(generationContext.getRuntimeHints(), registered, beanClasses);
    }

    /** The {@code queuekit.*} properties, bound strictly. */
    /**
     * The schedule queue of an application named {@code app}: {@code <app>-schedules}, with what a
     * queue name may not hold turned into '-', so that two applications on one Redis keep their
     * schedules apart.
     */
    static String scheduleQueueOf(String app) {
        String name = app.replaceAll("[^A-Za-z0-9._:-]", "-");
        return (name.length() > 80 ? name.substring(0, 80) : name) + "-schedules";
    }

    static QueuekitProperties bind(Environment environment) {
        checkTopLevelNames(environment);
        Binder binder = Binder.get(environment);
        BindHandler strict =
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT, source -> !fromEnvironmentVariables(source));
        QueuekitProperties properties = new QueuekitProperties();
        binder.bind("queuekit.transport", QueuekitProperties.Transport.class).ifBound(properties::setTransport);
        try {
            binder.bind("queuekit.in-memory", Bindable.ofInstance(properties.getInMemory()), strict);
            binder.bind("queuekit.health", Bindable.ofInstance(properties.getHealth()), strict);
            binder.bind("queuekit.observations", Bindable.ofInstance(properties.getObservations()), strict);
            binder.bind("queuekit.queues", Bindable.mapOf(String.class, Queue.class), strict)
                    .ifBound(queues -> properties.getQueues().putAll(queues));
            binder.bind("queuekit.schedules", Bindable.mapOf(String.class, ScheduleProperties.class), strict)
                    .ifBound(schedules -> properties.getSchedules().putAll(schedules));
            BindResult<String> scheduleQueue = binder.bind("queuekit.schedule-queue", String.class);
            if (scheduleQueue.isBound()) {
                properties.setScheduleQueue(scheduleQueue.get());
            } else {
                binder.bind("spring.application.name", String.class)
                        .map(QueueRegistrar::scheduleQueueOf)
                        .ifBound(properties::setScheduleQueue);
            }
        } catch (BindException e) {
            throw unknownNames(e);
        }
        binder.bind("queuekit.key-prefix", String.class).ifBound(prefix -> applyKeyPrefix(properties, prefix));
        return properties;
    }

    /** {@code queuekit.key-prefix}: checked as the queues check theirs, then given to each queue without one. */
    private static void applyKeyPrefix(QueuekitProperties properties, String prefix) {
        try {
            RedisKeys.of(prefix, "queue");
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    "queuekit.key-prefix=" + prefix + " is refused: " + e.getMessage(),
                    "Correct queuekit.key-prefix.",
                    e);
        }
        properties.setKeyPrefix(prefix);
        for (Queue queue : properties.getQueues().values()) {
            if (queue.getKeyPrefix() == null) {
                queue.setKeyPrefix(prefix);
            }
        }
    }

    /** The settings a queue has, after {@code queuekit.queues.<name>.}, to suggest for a misspelt one. */
    private static final List<String> QUEUE_SETTINGS = List.of(
            "type",
            "payload-type",
            "codec",
            "key-prefix",
            "visibility-timeout",
            "max-attempts",
            "dead-letter-retention",
            "max-payload-bytes",
            "block-timeout",
            "guarantee",
            "shards",
            "sharded",
            "retry.initial-backoff",
            "retry.max-backoff",
            "consumer.batch-size",
            "consumer.poll-timeout",
            "consumer.lease-renewal-limit",
            "broadcast.buffer-capacity",
            "broadcast.buffer-bytes",
            "broadcast.keep-alive-interval",
            "stream.max-length",
            "stream.max-age",
            "stream.hard-max-length");

    /** The settings a schedule has, after {@code queuekit.schedules.<name>.}. */
    private static final List<String> SCHEDULE_SETTINGS =
            List.of("queue", "cron", "zone", "every", "from", "at", "missed", "payload", "headers");

    /**
     * A name no setting has becomes a message with the closest name there is; any other binding
     * failure (a value of the wrong kind) is left to Spring Boot's own report, which names it.
     */
    private static RuntimeException unknownNames(BindException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof UnboundConfigurationPropertiesException unbound) {
                ConfigurationProperty first =
                        unbound.getUnboundProperties().iterator().next();
                String name = first.getName().toString();
                String origin = first.getOrigin() == null ? "" : " (" + first.getOrigin() + ")";
                String suggestion = suggest(first.getName());
                return new QueueConfigurationException(
                        "Unknown property " + name + origin
                                + (suggestion == null ? "" : "; did you mean " + suggestion + "?"),
                        suggestion == null
                                ? "Remove " + name + " or correct its name."
                                : "Rename it to " + suggestion + ", or remove it.",
                        e);
            }
        }
        return e;
    }

    private static String suggest(ConfigurationPropertyName name) {
        String text = name.toString();
        List<String> known;
        String prefix;
        if (text.startsWith("queuekit.queues.") && name.getNumberOfElements() > 3) {
            prefix = "queuekit.queues." + name.getElement(2, Form.ORIGINAL) + ".";
            known = QUEUE_SETTINGS;
        } else if (text.startsWith("queuekit.schedules.") && name.getNumberOfElements() > 3) {
            prefix = "queuekit.schedules." + name.getElement(2, Form.ORIGINAL) + ".";
            known = SCHEDULE_SETTINGS;
        } else if (text.startsWith("queuekit.health.")) {
            prefix = "queuekit.health.";
            known = List.of("dead-letter-threshold", "broadcast-down-after");
        } else if (text.startsWith("queuekit.observations.")) {
            prefix = "queuekit.observations.";
            known = List.of("enabled");
        } else if (text.startsWith("queuekit.in-memory.")) {
            prefix = "queuekit.in-memory.";
            known = List.of("clock");
        } else {
            return null;
        }
        String given = text.substring(prefix.length());
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(given, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return bestDistance <= Math.max(2, given.length() / 3) ? prefix + best : null;
    }

    /** Edit distance (Levenshtein) between two names. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    /**
     * Whether names come from the OS environment, where the platform puts variables of its own:
     * Kubernetes gives every pod {@code QUEUEKIT_SERVICE_HOST} and {@code QUEUEKIT_PORT} when a
     * Service is named {@code queuekit}. Such names are bound when they match a setting, and
     * ignored, not refused, when they match none.
     */
    private static boolean fromEnvironmentVariables(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
    }

    private static void checkTopLevelNames(Environment environment) {
        ConfigurationPropertyName root = ConfigurationPropertyName.of("queuekit");
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource names && !fromEnvironmentVariables(source)) {
                names.filter(root::isAncestorOf).stream()
                        .filter(name -> !TOP_LEVEL.contains(name.getElement(1, Form.UNIFORM)))
                        .findFirst()
                        .ifPresent(name -> {
                            throw new QueueConfigurationException(
                                    "Unknown property " + name + ": queuekit has "
                                            + "queuekit.transport, queuekit.key-prefix, queuekit.queues.*, "
                                            + "queuekit.schedules.*, queuekit.schedule-queue, queuekit.in-memory.*, "
                                            + "queuekit.health.* and queuekit.observations.*",
                                    "Remove " + name + " or correct its name.");
                        });
            }
        }
    }

    /**
     * The generated code names the queue bean's type beside {@link QueueFactory}: a payload type it
     * cannot see would fail only when that code is compiled, with a message that names no property.
     */
    private static void checkNameable(Definition queue) {
        checkNameable(queue, queue.payloadType());
    }

    private static void checkNameable(Definition queue, ResolvableType type) {
        Class<?> raw = type.resolve(Object.class);
        if (!AccessControl.forClass(raw).isAccessibleFrom(ClassName.get(QueueFactory.class))) {
            throw new QueueConfigurationException(
                    queue.property("payload-type") + ": " + raw.getName()
                            + " is not public, and the code that AOT processing generates for the queue names it",
                    "Make " + raw.getSimpleName() + " (and any class it is nested in) public.");
        }
        for (ResolvableType argument : type.getGenerics()) {
            checkNameable(queue, argument);
        }
        if (type.isArray()) {
            checkNameable(queue, type.getComponentType());
        }
    }

    /** The class of every bean that can be told without making it, by bean name. */
    private static Map<String, Class<?>> findListenerBeans(BeanDefinitionRegistry registry) {
        Map<String, Class<?>> found = new LinkedHashMap<>();
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
                found.put(name, ClassUtils.getUserClass(type));
            }
        }
        return found;
    }

    /**
     * A bean that {@link QueueFactory#queue(String)} makes, with the queue's generic type, its name as
     * qualifier and, where free, as alias.
     */
    private static void registerQueue(BeanDefinitionRegistry registry, Definition queue, boolean ofSchedules) {
        String beanName = beanName(queue.name(), queue.type());
        if (registry.containsBeanDefinition(beanName)) {
            throw new QueueConfigurationException(
                    "queuekit.queues." + queue.name() + " would be the bean '" + beanName
                            + "', but the application already has a bean of that name",
                    "Rename the queue or the other bean.");
        }
        ResolvableType target = targetType(queue);
        RootBeanDefinition definition = new RootBeanDefinition(target.toClass());
        definition.setTargetType(target);
        definition.setFactoryBeanName(FACTORY);
        definition.setFactoryMethodName("queue");
        definition.getConstructorArgumentValues().addIndexedArgumentValue(0, queue.name());
        definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, queue.name()));
        definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
        // the schedule methods' queue is the starter's own: injected only by its name
        definition.setDefaultCandidate(!ofSchedules);
        registry.registerBeanDefinition(beanName, definition);
        // so that a field or parameter named like the queue picks it where several queues share a
        // payload type (a DelayQueue<Order> is a MessageQueue<Order> too)
        if (!registry.containsBeanDefinition(queue.name()) && !registry.isAlias(queue.name())) {
            registry.registerAlias(beanName, queue.name());
        }
    }

    /**
     * {@code ordersQueue}, {@code pricesBroadcaster}, {@code eventsTopic}: not the bare queue name,
     * which an application's own {@code Orders} service would already hold. The bare name is an
     * alias where it is free.
     */
    static String beanName(String queue, QueuekitProperties.Type type) {
        return queue
                + switch (type) {
                    case BROADCAST -> "Broadcaster";
                    case STREAM -> "Topic";
                    case LIST, DELAY -> "Queue";
                };
    }
}
