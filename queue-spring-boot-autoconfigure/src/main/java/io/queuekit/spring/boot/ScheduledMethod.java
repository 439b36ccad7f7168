package io.queuekit.spring.boot;

import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.Trigger;
import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * A method annotated {@link QueueSchedule}, found on a bean's class before any bean is made, with its
 * trigger parsed, so that a bad one fails start-up naming the method.
 *
 * @param beanName the bean whose method it is
 * @param method the method, as declared on the bean's class
 * @param name the schedule's name, unique in the application
 * @param trigger when it runs
 * @param missed what it does about missed ticks
 * @param takesTick true when the method takes the tick's {@link Instant}
 */
record ScheduledMethod(
        String beanName, Method method, String name, Trigger trigger, MissedTicks missed, boolean takesTick) {

    /** The schedule methods of {@code type}, checked; {@code env} resolves placeholders in the attributes. */
    static List<ScheduledMethod> find(String beanName, Class<?> type, Environment env) {
        List<ScheduledMethod> found = new ArrayList<>();
        Map<Method, QueueSchedule> methods =
                MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<QueueSchedule>)
                        m -> AnnotatedElementUtils.findMergedAnnotation(m, QueueSchedule.class));
        methods.forEach((method, a) -> found.add(of(beanName, method, a, env)));
        return found;
    }

    private static ScheduledMethod of(String beanName, Method method, QueueSchedule a, Environment env) {
        String where = describe(method);
        String plain = ListenerMethod.describe(method);
        Class<?>[] parameters = method.getParameterTypes();
        if (parameters.length > 1 || (parameters.length == 1 && parameters[0] != Instant.class)) {
            throw new QueueConfigurationException(
                    where + " takes "
                            + List.of(parameters).stream()
                                    .map(Class::getSimpleName)
                                    .toList()
                            + "; a @QueueSchedule method takes nothing, or the tick's java.time.Instant",
                    "Make " + where + " take no parameter, or one java.time.Instant.");
        }
        String name = env.resolveRequiredPlaceholders(a.name()).trim();
        if (name.isEmpty()) {
            name = beanName + "." + method.getName();
        }
        try {
            Schedule.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    where + " has the schedule name '" + name + "', which is refused: " + e.getMessage(),
                    "Give " + where + " another name: @QueueSchedule(name = \"...\").",
                    e);
        }
        String cron = env.resolveRequiredPlaceholders(a.cron()).trim();
        String every = env.resolveRequiredPlaceholders(a.every()).trim();
        String zone = env.resolveRequiredPlaceholders(a.zone()).trim();
        if (cron.isEmpty() == every.isEmpty()) {
            throw new QueueConfigurationException(
                    where + (cron.isEmpty() ? " sets neither cron nor every" : " sets both cron and every")
                            + "; a @QueueSchedule sets exactly one",
                    "Set either cron (with zone) or every on " + where + ".");
        }
        if (!zone.isEmpty() && cron.isEmpty()) {
            throw new QueueConfigurationException(
                    where + " sets zone without cron; the zone is the cron expression's",
                    "Remove zone from " + where + ", or use cron.");
        }
        Trigger trigger = cron.isEmpty() ? every(plain, every) : cron(plain, cron, zone);
        return new ScheduledMethod(beanName, method, name, trigger, a.missed(), parameters.length == 1);
    }

    private static Trigger cron(String plain, String cron, String zone) {
        ZoneId z;
        try {
            z = zone.isEmpty() ? ZoneOffset.UTC : ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new QueueConfigurationException(
                    "@QueueSchedule(zone = \"" + zone + "\") on " + plain + " is not a time zone: " + e.getMessage(),
                    "Set zone to a region such as Europe/Berlin or an offset such as +01:00.",
                    e);
        }
        try {
            return Trigger.cron(cron, z);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    "@QueueSchedule(cron = \"" + cron + "\") on " + plain + " is refused: " + e.getMessage(),
                    "Correct the cron expression: six fields from the second (0 30 2 * * *) or five from the minute.",
                    e);
        }
    }

    private static Trigger every(String plain, String every) {
        try {
            Duration period = DurationStyle.detectAndParse(every);
            return Trigger.every(period);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    "@QueueSchedule(every = \"" + every + "\") on " + plain + " is refused: " + e.getMessage(),
                    "Set every to a duration of at least " + Trigger.MIN_PERIOD.toMillis()
                            + "ms, such as 30s, 5m or PT1H.",
                    e);
        }
    }

    /** The schedule the scheduler stores for the method: its name, as payload too. */
    Schedule<String> schedule() {
        return Schedule.of(name, trigger, name).whenMissed(missed);
    }

    /** {@code Reports.nightly(Instant)}, for messages. */
    static String describe(Method method) {
        return "@QueueSchedule " + ListenerMethod.describe(method);
    }

    String describe() {
        return describe(method);
    }
}
