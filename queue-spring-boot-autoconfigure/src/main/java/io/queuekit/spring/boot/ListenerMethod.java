package io.queuekit.spring.boot;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * A method annotated {@link QueueListener} or {@link BroadcastListener}, found on a bean's class
 * before any bean is made, so that the queues' payload types and the pool can be set from it.
 *
 * @param beanName the bean whose method it is
 * @param method the method, as declared on the bean's class
 * @param queue the queue or channel it names
 * @param group the consumer group of a stream it consumes ({@link QueueListener#group()}); null if
 *     none is named
 * @param broadcast true for {@link BroadcastListener}
 * @param concurrency worker threads (1 for a broadcast)
 * @param noRetryFor exceptions that dead-letter at once
 * @param takesDelivery true when the first parameter is a {@link Delivery}
 * @param takesHeaders true when a second parameter takes the message's {@link Headers}
 * @param payloadType the payload type the parameter asks for, with its type arguments
 *     ({@code List<Order>}), as {@link #concrete} makes it
 * @param id its id in the {@link QueueListenerRegistry}
 * @param autoStartup whether it starts with the context
 * @param initialBackoff the annotation's {@code initialBackoff}, null for the queue's
 * @param maxBackoff the annotation's {@code maxBackoff}, null for the queue's
 */
record ListenerMethod(
        String beanName,
        Method method,
        String queue,
        @Nullable String group,
        boolean broadcast,
        int concurrency,
        List<Class<? extends Throwable>> noRetryFor,
        boolean takesDelivery,
        boolean takesHeaders,
        ResolvableType payloadType,
        String id,
        boolean autoStartup,
        @Nullable Duration initialBackoff,
        @Nullable Duration maxBackoff) {

    /** A group's name: as {@code Topic#group(String)} takes it. */
    private static final Pattern GROUP_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    /** What the annotation says besides the queue, its placeholders resolved. */
    private record Settings(
            @Nullable String group,
            int concurrency,
            List<Class<? extends Throwable>> noRetryFor,
            String id,
            boolean autoStartup,
            @Nullable Duration initialBackoff,
            @Nullable Duration maxBackoff) {}

    /** The listener methods of {@code type}, checked; {@code env} resolves placeholders in the attributes. */
    static List<ListenerMethod> find(String beanName, Class<?> type, Environment env) {
        List<ListenerMethod> found = new ArrayList<>();
        Map<Method, QueueListener> queues =
                MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<QueueListener>)
                        m -> AnnotatedElementUtils.findMergedAnnotation(m, QueueListener.class));
        queues.forEach((method, a) -> found.add(of(
                beanName,
                type,
                method,
                a.queue(),
                false,
                new Settings(
                        group(method, a.group(), env),
                        concurrency(method, a.concurrency(), env),
                        List.of(a.noRetryFor()),
                        id(beanName, method, a.id(), env),
                        autoStartup(method, "QueueListener", a.autoStartup(), env),
                        backoff(method, "initialBackoff", a.initialBackoff(), env),
                        backoff(method, "maxBackoff", a.maxBackoff(), env)))));
        Map<Method, BroadcastListener> channels =
                MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<BroadcastListener>)
                        m -> AnnotatedElementUtils.findMergedAnnotation(m, BroadcastListener.class));
        channels.forEach((method, a) -> found.add(of(
                beanName,
                type,
                method,
                a.channel(),
                true,
                new Settings(
                        null,
                        1,
                        List.of(),
                        id(beanName, method, a.id(), env),
                        autoStartup(method, "BroadcastListener", a.autoStartup(), env),
                        null,
                        null))));
        return found;
    }

    private static ListenerMethod of(
            String beanName, Class<?> beanClass, Method method, String queue, boolean broadcast, Settings settings) {
        String first = broadcast ? "the payload" : "the payload or a Delivery<T>";
        int count = method.getParameterCount();
        if (count != 1 && count != 2) {
            throw new QueueConfigurationException(
                    describe(method) + " takes " + count + " parameters; a listener method takes " + first
                            + ", and may take the message's Headers second",
                    "Give " + describe(method) + " one parameter, " + first + ", or two: that and "
                            + Headers.class.getName() + ".");
        }
        ResolvableType parameter = ResolvableType.forMethodParameter(method, 0, beanClass);
        if (parameter.toClass() == Headers.class) {
            throw new QueueConfigurationException(
                    describe(method) + " takes Headers first; a listener method's first parameter is " + first,
                    "Make " + first + " the first parameter of " + describe(method) + ", and Headers the second.");
        }
        boolean takesHeaders = count == 2;
        if (takesHeaders) {
            Class<?> second =
                    ResolvableType.forMethodParameter(method, 1, beanClass).toClass();
            if (second != Headers.class) {
                throw new QueueConfigurationException(
                        describe(method) + " takes 2 parameters, the second a " + second.getName()
                                + "; a listener method's second parameter can only be " + Headers.class.getName()
                                + ", the message's headers",
                        "Make the second parameter of " + describe(method) + " " + Headers.class.getName()
                                + ", or remove it.");
            }
        }
        boolean takesDelivery = Delivery.class.isAssignableFrom(parameter.toClass());
        if (takesDelivery && broadcast) {
            throw new QueueConfigurationException(
                    describe(method) + " takes a Delivery, but a broadcast message is " + "not settled",
                    "Make the parameter the payload type.");
        }
        ResolvableType payload =
                concrete(takesDelivery ? parameter.as(Delivery.class).getGeneric(0) : parameter);
        return new ListenerMethod(
                beanName,
                method,
                queue,
                settings.group(),
                broadcast,
                settings.concurrency(),
                List.copyOf(settings.noRetryFor()),
                takesDelivery,
                takesHeaders,
                payload,
                settings.id(),
                settings.autoStartup(),
                settings.initialBackoff(),
                settings.maxBackoff());
    }

    /**
     * {@code type} rebuilt from classes alone: type variables resolved against the bean's class,
     * {@code Object} for what stays open ({@code ?}, an unbound variable), a raw class left raw. Two
     * parameters of one type then compare equal, and Jackson can construct it.
     */
    static ResolvableType concrete(ResolvableType type) {
        if (type.isArray()) {
            return ResolvableType.forArrayComponent(concrete(type.getComponentType()));
        }
        Class<?> raw = type.resolve(Object.class);
        if (type.getType() instanceof Class<?> || !type.hasGenerics()) {
            return ResolvableType.forClass(raw);
        }
        return ResolvableType.forClassWithGenerics(
                raw,
                Arrays.stream(type.getGenerics()).map(ListenerMethod::concrete).toArray(ResolvableType[]::new));
    }

    /** The {@code group} attribute: null if empty, else a name a topic takes. */
    private static @Nullable String group(Method method, String text, Environment env) {
        String resolved = env.resolveRequiredPlaceholders(text).trim();
        if (resolved.isEmpty()) {
            return null;
        }
        if (!GROUP_NAME.matcher(resolved).matches()) {
            throw new QueueConfigurationException(
                    "@QueueListener(group = \"" + text + "\") on " + describe(method) + " is "
                            + (text.equals(resolved) ? "" : "\"" + resolved + "\", ")
                            + "not a group name: 1 to 100 letters, digits, '.', '_' or '-'",
                    "Name the consumer group with letters, digits, '.', '_' or '-', such as \"billing\".");
        }
        return resolved;
    }

    private static int concurrency(Method method, String text, Environment env) {
        String resolved = env.resolveRequiredPlaceholders(text).trim();
        try {
            int n = Integer.parseInt(resolved);
            if (n >= 1 && n <= 1024) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new QueueConfigurationException(
                "@QueueListener(concurrency = \"" + text + "\") on " + describe(method) + " is "
                        + (text.equals(resolved) ? "" : "\"" + resolved + "\", ") + "not a number from 1 to 1024",
                "Set concurrency to a number of worker threads from 1 to 1024.");
    }

    private static String id(String beanName, Method method, String text, Environment env) {
        String resolved = env.resolveRequiredPlaceholders(text).trim();
        return resolved.isEmpty() ? beanName + "." + method.getName() : resolved;
    }

    private static boolean autoStartup(Method method, String annotation, String text, Environment env) {
        String resolved = env.resolveRequiredPlaceholders(text).trim().toLowerCase(Locale.ROOT);
        if (resolved.equals("true") || resolved.equals("false")) {
            return Boolean.parseBoolean(resolved);
        }
        throw new QueueConfigurationException(
                "@" + annotation + "(autoStartup = \"" + text + "\") on " + describe(method) + " is "
                        + (text.equals(resolved) ? "" : "\"" + resolved + "\", ") + "neither true nor false",
                "Set autoStartup to true or false.");
    }

    /** A backoff attribute: null if empty, else a duration in Spring Boot's formats. */
    private static @Nullable Duration backoff(Method method, String attribute, String text, Environment env) {
        String resolved = env.resolveRequiredPlaceholders(text).trim();
        if (resolved.isEmpty()) {
            return null;
        }
        try {
            return DurationStyle.detectAndParse(resolved);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    "@QueueListener(" + attribute + " = \"" + text + "\") on " + describe(method) + " is "
                            + (text.equals(resolved) ? "" : "\"" + resolved + "\", ") + "not a duration",
                    "Set " + attribute + " to a duration such as 500ms, 2s or PT1M, or leave it empty for the "
                            + "queue's retry settings.",
                    e);
        }
    }

    /** {@code OrderHandler.handle(Order)}, for messages. */
    static String describe(Method method) {
        StringBuilder s = new StringBuilder(method.getDeclaringClass().getSimpleName())
                .append('.')
                .append(method.getName())
                .append('(');
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            s.append(i == 0 ? "" : ", ").append(types[i].getSimpleName());
        }
        return s.append(')').toString();
    }

    String describe() {
        return "@" + (broadcast ? "BroadcastListener" : "QueueListener") + " " + describe(method);
    }

    /** {@code @QueueListener(group = "billing") Billing.handle(Order)}, for messages about its group. */
    String describeWithGroup() {
        return group == null ? describe() : "@QueueListener(group = \"" + group + "\") " + describe(method);
    }
}
